// Submit with the rate limiter as a user runs it, side by side in one run on each database:
//   off     — FORMDOWN_RATE_SUBMIT=0
//   hot     — the limiter on, all load from one IP, the limit set high enough never to trip
//   spread  — the default limiter (600 a minute) with the load spread over 1,000 client IPs
//             (X-Forwarded-For)
// against the bare one-INSERT server (node:http + one INSERT into the responses table). Prints
// req/s, p99 and the server's RSS (peak, from /proc) for each, and each mode's ratio to `off`.
// Goal (issue 16): hot and spread >= 0.8x off in req/s, p99 <= 2x off.
// Usage: npx node bench/limiter.ts [seconds] [rounds]   (BENCH_DB=pglite|postgres for one only;
// Postgres runs when 127.0.0.1:5432 answers, in a database of its own dropped afterwards).
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { connect } from "node:net";
import postgres from "postgres";

const seconds = Number(process.argv[2] ?? 5);
const rounds = Number(process.argv[3] ?? 1);
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
        env: { ...process.env, FORMDOWN_RATE_SUBMIT: rate, FORMDOWN_RATE_API: rate },
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

async function load(url: string, spread: boolean, duration = seconds) {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const end = performance.now() + duration * 1000;
  let n = 0;
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
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  latencies.sort((a, b) => a - b);
  const errors = [...statuses].filter(([s]) => s !== 201).reduce((sum, [, c]) => sum + c, 0);
  return {
    rps: Math.round(latencies.length / duration),
    p99: Math.round(latencies[Math.floor(latencies.length * 0.99)]! * 10) / 10,
    errors,
  };
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
type Run = { rps: number; p99: number; errors: number; idle: number; peak: number };
try {
  for (const db of dbs) {
    const extra = db === "postgres" ? [db, benchUrl.toString()] : [db];
    const runs = Object.fromEntries(modes.map((m) => [m, [] as Run[]])) as Record<Mode, Run[]>;
    for (let round = 0; round < rounds; round++) {
      for (const mode of modes) {
        const target = await start(mode, extra);
        const idle = rssMb(target.pid, "VmRSS");
        await load(target.url, mode === "spread", 3); // warm-up, discarded
        const run = await load(target.url, mode === "spread");
        runs[mode].push({ ...run, idle, peak: rssMb(target.pid, "VmHWM") });
        target.stop();
      }
    }
    const median = (mode: Mode, key: keyof Run) => {
      const values = runs[mode].map((r) => r[key]).sort((a, b) => a - b);
      return values[Math.floor(values.length / 2)]!;
    };
    console.log(`${db}:`);
    for (const mode of modes) {
      const ratio = (key: "rps" | "p99") =>
        Math.round((median(mode, key) / median("off", key)) * 100) / 100;
      const errors = runs[mode].reduce((sum, r) => sum + r.errors, 0);
      console.log(
        `  ${mode.padEnd(8)} ${String(median(mode, "rps")).padStart(6)} req/s  p99 ${String(median(mode, "p99")).padStart(6)} ms  RSS idle ${median(mode, "idle")} MB peak ${median(mode, "peak")} MB  non-201 ${errors}  [${runs[mode].map((r) => r.rps).join("/")}]` +
          (mode === "baseline" ? "" : `  vs off: ${ratio("rps")}x req/s, ${ratio("p99")}x p99`),
      );
    }
  }
} finally {
  if (admin) {
    await admin.unsafe(`drop database if exists ${benchDb} with (force)`);
    await admin.end();
  }
}
