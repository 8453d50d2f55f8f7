// Webhooks' cost to submits, and the sender's pace (issue 13). In the same run, alternating:
//   none  — the form without a webhook (the baseline);
//   fast  — the same form with a webhook to a loopback receiver that answers 204 at once;
//   hang  — a webhook to a receiver that accepts every request and never answers.
// The server, the receivers (webhooks-receiver.ts) and the load generator (here) are three
// processes: the figures are the server's, not a receiver's sharing the load generator's loop.
// Submit throughput is compared with `none` (goal: fast >= 0.8x, hang no lower); for `fast`,
// deliveries that arrive during the load are compared with the submits (goal: keeps up), and
// the time to drain what is left after the load is reported. RSS is the server's peak. CPU is
// per submit, for the server, the receivers' process and the load generator: on a small machine
// the three share the cores, so the server's own figure says more than the throughput alone.
// Usage: npx node bench/webhooks.ts [seconds] [rounds]   (BENCH_DB=pglite|postgres for one)
// BENCH_PROF=<dir> writes a CPU profile of each server there (node --cpu-prof).
// The defaults, 5 rounds of 6 s, are for the per-delivery figure: it is the difference of two
// medians, and 3 rounds of 5 s gave anything from 0.64x to 1.60x on one afternoon (issue 28).
import "./reader-gone.ts";
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { FLAG as LIFTOFF_ONLY } from "../functions/node/low-memory.ts";

const seconds = Number(process.argv[2] ?? 6);
const rounds = Number(process.argv[3] ?? 5);
const concurrency = 32;
const body = JSON.stringify({ fields: { name: "Ada Lovelace", score: 9, tags: ["a", "c"] } });

// The receivers get a core of their own (issue 28): the receiver on CPU 1, the server under test
// and this load generator on CPU 0, where `taskset` and two cores are there (BENCH_PIN=0: none).
const pinned =
  process.env.BENCH_PIN !== "0" &&
  availableParallelism() >= 2 &&
  spawnSync("taskset", ["-c", "0", "true"]).status === 0;
const onCore = (core: number, args: string[]): [string, string[]] =>
  pinned ? ["taskset", ["-c", String(core), process.execPath, ...args]] : [process.execPath, args];
if (pinned) spawnSync("taskset", ["-pc", "0", String(process.pid)], { stdio: "ignore" });

// the two receivers, in a process of their own
const receiverChild = spawn(
  ...onCore(1, [new URL("./webhooks-receiver.ts", import.meta.url).pathname]),
  { stdio: ["ignore", "pipe", "inherit"] },
);
const [fastUrl, hangUrl] = await new Promise<[string, string]>((resolve) => {
  receiverChild.stdout.on("data", (d: Buffer) => {
    const m = /FAST (\S+) HANG (\S+)/.exec(d.toString());
    if (m) resolve([m[1]!, m[2]!]);
  });
});
const receivers = { none: "none", fast: fastUrl, hang: hangUrl };
/** A process's CPU time so far, in µs, from /proc (clock ticks of 10 ms). */
const procCpu = (pid: number) => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
};
const ownCpu = () => {
  const c = process.cpuUsage();
  return c.user + c.system;
};
/** Deliveries the fast receiver has had since the last reset. */
let offset = 0;
const count = async () => Number(await (await fetch(fastUrl)).text()) - offset;
const reset = async () => {
  offset += await count();
};

function start(db: string, receiver: string, dbUrl?: string) {
  const dir = mkdtempSync(join(tmpdir(), "bench-wh-"));
  return new Promise<{
    url: string;
    stop: () => Promise<void>;
    rss: () => number;
    cpu: () => number;
  }>((resolve, reject) => {
    const child = spawn(
      ...onCore(0, [
        // as `npm start` runs the embedded server: baseline wasm code only (low-memory.ts)
        ...(db === "pglite" ? [LIFTOFF_ONLY] : []),
        // BENCH_PROF=<dir>: a CPU profile of each server, to see where a delivery's time goes
        ...(process.env.BENCH_PROF
          ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROF}`]
          : []),
        new URL("./webhooks-target.ts", import.meta.url).pathname,
        db,
        dir,
        receiver,
        ...(dbUrl ? [dbUrl] : []),
      ]),
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let peak = 0;
    let cpu = 0;
    child.stdout.on("data", (d: Buffer) => {
      for (const m of d.toString().matchAll(/RSS (\d+) CPU (\d+)/g)) {
        peak = Math.max(peak, Number(m[1]));
        cpu = Number(m[2]);
      }
      const u = /URL (\S+)/.exec(d.toString());
      if (u)
        resolve({
          url: u[1]!,
          rss: () => peak,
          cpu: () => cpu,
          stop: () =>
            new Promise((done) => {
              child.once("exit", () => {
                rmSync(dir, { recursive: true, force: true });
                done();
              });
              child.kill("SIGTERM");
              setTimeout(
                () => child.kill("SIGKILL"),
                process.env.BENCH_PROF ? 60_000 : 5000,
              ).unref();
            }),
        });
    });
    child.once("exit", (code) => (code ? reject(new Error(`target exited ${code}`)) : undefined));
  });
}

async function load(url: string, duration: number) {
  let ok = 0;
  let errors = 0;
  const end = performance.now() + duration * 1000;
  const worker = async () => {
    while (performance.now() < end) {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body,
      });
      await res.arrayBuffer();
      if (res.status === 201) ok++;
      else errors++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { ok, errors, rps: Math.round(ok / duration) };
}

async function drained(expected: number, ms: number) {
  const t = performance.now();
  while ((await count()) < expected && performance.now() - t < ms)
    await new Promise((r) => setTimeout(r, 20));
  return Math.round(performance.now() - t);
}

/** CPU µs per POST of a bare keep-alive client to the fast receiver (bench/webhooks-bare.ts). */
async function bareCpu(): Promise<number> {
  const child = spawn(
    ...onCore(0, [new URL("./webhooks-bare.ts", import.meta.url).pathname, fastUrl, "20000", "32"]),
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let out = "";
  child.stdout.on("data", (d: Buffer) => {
    out += d.toString();
  });
  await new Promise((r) => child.once("exit", r));
  const m = /BARE (\d+)/.exec(out);
  if (!m) throw new Error(`the bare client printed no figure: ${out}`);
  await reset();
  return Number(m[1]);
}

const pg = await new Promise<boolean>((r) =>
  connect(5432, "127.0.0.1")
    .once("connect", function (this: Socket) {
      this.destroy();
      r(true);
    })
    .once("error", () => r(false)),
);
const dbs = (pg ? ["pglite", "postgres"] : ["pglite"]).filter(
  (db) => !process.env.BENCH_DB || process.env.BENCH_DB === db,
);
const adminUrl = process.env.BENCH_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const admin = pg ? postgres(adminUrl, { max: 1, onnotice: () => {} }) : null;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

try {
  for (const db of dbs) {
    const rps: Record<string, number[]> = { none: [], fast: [], hang: [] };
    const rss: Record<string, number[]> = { none: [], fast: [], hang: [] };
    const keepUp: number[] = [];
    /** CPU µs per submit: the server, the receivers, the load generator. */
    const cpu: Record<string, number[][]> = { none: [], fast: [], hang: [] };
    const drains: number[] = [];
    const deliveredRate: number[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const kind of ["none", "fast", "hang"] as const) {
        let name: string | null = null;
        let dbUrl: string | undefined;
        if (db === "postgres") {
          name = `formdown_bench_wh_${Date.now()}`;
          await admin!.unsafe(`create database ${name}`);
          const u = new URL(adminUrl);
          u.pathname = `/${name}`;
          dbUrl = u.toString();
        }
        const target = await start(db, receivers[kind], dbUrl);
        const warm = await load(target.url, 2);
        if (kind === "fast") await drained(warm.ok, 30_000);
        await reset();
        const before = [target.cpu(), procCpu(receiverChild.pid!), ownCpu()];
        const run = await load(target.url, seconds);
        // the last sample comes within 100 ms: wait for one that covers the whole load
        await new Promise((r) => setTimeout(r, 150));
        const after = [target.cpu(), procCpu(receiverChild.pid!), ownCpu()];
        const per = (i: number) => Math.round((after[i]! - before[i]!) / run.ok);
        cpu[kind]!.push([per(0), per(1), per(2)]);
        rps[kind]!.push(run.rps);
        if (kind === "fast") {
          const during = await count();
          keepUp.push(Math.round((during / run.ok) * 100) / 100);
          deliveredRate.push(Math.round(during / seconds));
          drains.push(await drained(run.ok, 60_000));
          await reset();
        }
        rss[kind]!.push(Math.round(target.rss() / 1024 / 1024));
        await target.stop();
        if (kind === "hang") await fetch(hangUrl);
        if (name) await admin!.unsafe(`drop database if exists ${name} with (force)`);
      }
    }
    const ratio = (k: string) => Math.round((median(rps[k]!) / median(rps.none!)) * 100) / 100;
    const cpuOf = (k: string, i: number) => median(cpu[k]!.map((c) => c[i]!));
    const show = (k: string) =>
      `${median(rps[k]!)} submits/s [${rps[k]!.join("/")}], peak RSS ${median(rss[k]!)} MiB, CPU µs/submit: server ${cpuOf(k, 0)}, receiver ${cpuOf(k, 1)}, load ${cpuOf(k, 2)}`;
    // the limit of a delivery: the same POST from a bare keep-alive client, on the server's core
    const bare = await bareCpu();
    const delivery = cpuOf("fast", 0) - cpuOf("none", 0);
    // each round's own difference: the kinds alternate within a round, so it shows the spread
    const perRound = cpu.fast!.map((c, i) => c[0]! - cpu.none![i]![0]!);
    console.log(`${db}
  no webhook:              ${show("none")}
  webhook, fast receiver:  ${show("fast")} -> ${ratio("fast")}x
  webhook, hanging one:    ${show("hang")} -> ${ratio("hang")}x
  deliveries during load:  ${median(deliveredRate)}/s = ${median(keepUp)} of submits [${keepUp.join("/")}]; rest drained in ${median(drains)} ms [${drains.join("/")}]
  server CPU per delivery: ${delivery} µs (fast minus none; by round ${perRound.join("/")}) against a bare http.request POST of the same size, ${bare} µs -> ${(delivery / bare).toFixed(2)}x (goal ≤ 1.3x); submits with the fast receiver ${ratio("fast")}x (goal ≥ 0.8x)${pinned ? "; receiver pinned to CPU 1, server and load to CPU 0" : ""}`);
  }
} finally {
  await admin?.end();
  receiverChild.kill("SIGTERM");
}
