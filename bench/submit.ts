// Submit throughput and p99: Formdown vs a bare node:http + one INSERT, same driver, same run —
// two baselines: the INSERT into a table with only a primary key, and into the service's own
// responses table (with the indexes its reads need).
// Usage: npx node bench/submit.ts [seconds] [rounds]   (Postgres runs when 127.0.0.1:5432 answers,
// in a database of its own that is dropped afterwards). The three servers alternate for `rounds`
// rounds (default 3) and medians are compared: on a 2-core machine single runs move by ±30 %.
// BENCH_DB=pglite or BENCH_DB=postgres runs only that database; FORMDOWN_SUBMIT_BATCH=1 turns the
// shared INSERT of concurrent submits off.
import "./reader-gone.ts";
import { spawn } from "node:child_process";
import { connect } from "node:net";
import postgres from "postgres";

const seconds = Number(process.argv[2] ?? 5);
const rounds = Number(process.argv[3] ?? 3);
const concurrency = 32;
const body = JSON.stringify({ fields: { name: "Ada Lovelace", score: 9, tags: ["a", "c"] } });

function start(args: string[]): Promise<{ url: string; stop: () => void }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [new URL("./submit-target.ts", import.meta.url).pathname, ...args],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    child.stdout.on("data", (d: Buffer) => {
      const m = /URL (\S+)/.exec(d.toString());
      if (m) resolve({ url: m[1]!, stop: () => child.kill() });
    });
    child.once("exit", (code) => reject(new Error(`target exited ${code}`)));
  });
}

async function load(url: string, duration = seconds) {
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + duration * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const t = performance.now();
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      await res.arrayBuffer();
      if (res.status !== 201) errors++;
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  latencies.sort((a, b) => a - b);
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
const benchDb = `formdown_bench_submit_${Date.now()}`;
const benchUrl = new URL(adminUrl);
benchUrl.pathname = `/${benchDb}`;
const admin = pg ? postgres(adminUrl, { max: 1, onnotice: () => {} }) : null;
if (admin) await admin.unsafe(`create database ${benchDb}`);
try {
  for (const db of dbs) {
    const extra = db === "postgres" ? [benchUrl.toString()] : [];
    const runs: Record<string, { rps: number; p99: number; errors: number }[]> = {
      baseline: [],
      "baseline-responses": [],
      formdown: [],
    };
    for (let round = 0; round < rounds; round++) {
      for (const kind of ["baseline", "baseline-responses", "formdown"]) {
        const target = await start([kind, db, ...extra]);
        await load(target.url, 3); // warm-up until the hot path is compiled, discarded
        runs[kind]!.push(await load(target.url));
        target.stop();
      }
    }
    const median = (kind: string, key: "rps" | "p99") => {
      const values = runs[kind]!.map((r) => r[key]).sort((a, b) => a - b);
      return values[Math.floor(values.length / 2)]!;
    };
    const errors = runs.formdown!.reduce((sum, r) => sum + r.errors, 0);
    const ratio = (base: string) =>
      Math.round((median("formdown", "rps") / median(base, "rps")) * 100) / 100;
    const list = (kind: string) => runs[kind]!.map((r) => r.rps).join("/");
    const show = (kind: string) =>
      `${median(kind, "rps")} req/s p99 ${median(kind, "p99")} ms [${list(kind)}]`;
    console.log(
      `${db.padEnd(8)} formdown ${show("formdown")} (errors ${errors})
         baseline, INSERT into a bare table:      ${show("baseline")} -> ratio ${ratio("baseline")}x
         baseline, INSERT into the responses table: ${show("baseline-responses")} -> ratio ${ratio("baseline-responses")}x`,
    );
  }
} finally {
  if (admin) {
    await admin.unsafe(`drop database if exists ${benchDb} with (force)`);
    await admin.end();
  }
}
