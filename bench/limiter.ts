// Submit with the rate limiter as a user runs it, side by side in one run on each database:
//   off     — FORMDOWN_RATE_SUBMIT=0
//   hot     — the limiter on, all load from one IP, the limit set high enough never to trip
//   spread  — the default limiter (600 a minute) with the load spread over 1,000 client IPs
//             (X-Forwarded-For)
// against the bare one-INSERT server (node:http + one INSERT into the responses table). Prints
// req/s, p99 and the server's RSS (peak, from /proc) for each, and each mode's ratio to `off`.
// Goal (issue 16): hot and spread >= 0.8x off in req/s, p99 <= 2x off.
// Measured 2026-11-24 (`node bench/limiter.ts 15`, 2 cores shared with seven other agents, so
// compare ratios, not absolute figures), req/s and p99 as a ratio to `off`:
//   before the redesign  pglite hot 0.44x / 2.76x, spread 0.44x / 2.27x;
//                        postgres hot 0.39x / 1.35x, spread 0.60x / 1.11x
//   after                pglite hot 0.91x / 1.10x, spread 1.00x / 0.95x;
//                        postgres hot 0.93x / 1.11x, spread 0.90x / 1.01x
// Usage: npx node bench/limiter.ts [turns]   — each mode gets `turns` one-second turns (default
// 10) after a 3 s warm-up (BENCH_DB=pglite|postgres for one only; Postgres runs when
// 127.0.0.1:5432 answers, in a database of its own dropped afterwards).
import "./reader-gone.ts";
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import postgres from "postgres";

const turns = Number(process.argv[2] ?? 10);
const concurrency = 32;
const body = JSON.stringify({ fields: { name: "Ada Lovelace", score: 9, tags: ["a", "c"] } });

type Mode = "baseline" | "off" | "hot" | "spread";
const modes: Mode[] = ["baseline", "off", "hot", "spread"];

interface Target {
  url: string;
  pid: number;
  stop: () => void;
}

function start(mode: Mode, args: string[]): Promise<Target> {
  const kind = mode === "baseline" ? "baseline-responses" : "formdown";
  const rate = { baseline: "0", off: "0", hot: "1000000000", spread: "600" }[mode];
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [new URL("./submit-target.ts", import.meta.url).pathname, kind, ...args],
      {
        stdio: ["ignore", "pipe", "inherit"],
        env: {
          ...process.env,
          FORMDOWN_RATE_SUBMIT: rate,
          FORMDOWN_RATE_API: rate,
          FORMDOWN_TRUSTED_PROXIES: "1",
        },
      },
    );
    child.stdout.on("data", (d: Buffer) => {
      const m = /URL (\S+)/.exec(d.toString());
      if (m) resolve({ url: m[1]!, pid: child.pid!, stop: () => child.kill() });
    });
    child.once("exit", (code) => reject(new Error(`target exited ${code}`)));
  });
}

const rssMb = (pid: number, field: "VmRSS" | "VmHWM") =>
  Math.round(
    Number(
      new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1],
    ) / 1024,
  );

/** Runs `duration` seconds of load; latencies go into `into` (so slices can add up). */
let n = 0; // the next client address of the spread mode

async function load(
  url: string,
  spread: boolean,
  duration: number,
  into: { latencies: number[]; errors: number },
) {
  const end = performance.now() + duration * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (spread) {
        const ip = n++ % 1000;
        headers["x-forwarded-for"] = `10.1.${ip >> 8}.${ip & 255}`;
      }
      const t = performance.now();
      const res = await fetch(url, { method: "POST", headers, body });
      await res.arrayBuffer();
      if (res.status !== 201) into.errors++;
      into.latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

const pg = await new Promise<boolean>((r) =>
  connect(5432, "127.0.0.1")
    .once("connect", function (this: import("node:net").Socket) {
      this.destroy();
      r(true);
    })
    .once("error", () => r(false)),
);
const dbs = (pg ? ["pglite", "postgres"] : ["pglite"]).filter(
  (db) => !process.env.BENCH_DB || process.env.BENCH_DB === db,
);
const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const benchDb = `formdown_bench_limiter_${Date.now()}`;
const benchUrl = new URL(adminUrl);
benchUrl.pathname = `/${benchDb}`;
const admin = pg ? postgres(adminUrl, { max: 1, onnotice: () => {} }) : null;
if (admin) await admin.unsafe(`create database ${benchDb}`);
type Run = { latencies: number[]; errors: number; seconds: number; idle: number; peak: number };
try {
  for (const db of dbs) {
    const extra = db === "postgres" ? [db, benchUrl.toString()] : [db];
    // All four servers run at once and take the load in turns of one second, in a new order each
    // round: on a shared machine the noise then falls on every mode alike.
    const targets = {} as Record<Mode, Target>;
    const runs = {} as Record<Mode, Run>;
    for (const mode of modes) {
      targets[mode] = await start(mode, extra);
      const idle = rssMb(targets[mode].pid, "VmRSS");
      runs[mode] = { latencies: [], errors: 0, seconds: 0, idle, peak: 0 };
      await load(targets[mode].url, mode === "spread", 3, { latencies: [], errors: 0 }); // warm-up
    }
    try {
      for (let turn = 0; turn < turns; turn++) {
        const order = [...modes].sort(() => Math.random() - 0.5);
        for (const mode of order) {
          await load(targets[mode].url, mode === "spread", 1, runs[mode]);
          runs[mode].seconds += 1;
        }
      }
      for (const mode of modes) runs[mode].peak = rssMb(targets[mode].pid, "VmHWM");
    } finally {
      for (const mode of modes) targets[mode].stop();
    }
    const rps = (mode: Mode) => Math.round(runs[mode].latencies.length / runs[mode].seconds);
    const p99 = (mode: Mode) => {
      const sorted = [...runs[mode].latencies].sort((a, b) => a - b);
      return Math.round(sorted[Math.floor(sorted.length * 0.99)]! * 10) / 10;
    };
    console.log(`${db}:`);
    for (const mode of modes) {
      const r = runs[mode];
      const vs =
        mode === "baseline"
          ? ""
          : `  vs off: ${Math.round((rps(mode) / rps("off")) * 100) / 100}x req/s, ${Math.round((p99(mode) / p99("off")) * 100) / 100}x p99`;
      console.log(
        `  ${mode.padEnd(8)} ${String(rps(mode)).padStart(6)} req/s  p99 ${String(p99(mode)).padStart(6)} ms  RSS idle ${r.idle} MB peak ${r.peak} MB  non-201 ${r.errors}${vs}`,
      );
    }
  }
} finally {
  if (admin) {
    await admin.unsafe(`drop database if exists ${benchDb} with (force)`);
    await admin.end();
  }
}
