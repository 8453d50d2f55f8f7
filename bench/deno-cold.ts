// Cold start of the Deno entry (SPEC §17, issue 28's serverless row): wall time from spawning
// `deno run -A` on the Supabase entry, bundled as `npm run build:deno` bundles it (what a host
// starts), to its first `GET /api/health` 200, and in another fresh process to its first submit
// 201; against the limit, bench/deno-bare.ts (bare `Deno.serve` + postgres.js `select 1`) to its
// first 200. The same entry run from its .ts files (supabase/functions/formdown/index.ts) is
// measured too. Each measured request is the process's first: the port is polled every 5 ms with
// a bare TCP connect, then the one request is sent. The five alternate, `runs` each (default 7);
// medians, ratios and peak RSS (VmHWM) are printed. Usage: `node bench/deno-cold.ts [runs]`.
// Needs Postgres at 127.0.0.1:5432 (BENCH_PG_URL overrides); cleans up even on failure.
// BENCH_DENO_FLAGS adds flags to every `deno run` (e.g. `--unstable-lazy-dynamic-imports`).
import "./reader-gone.ts";
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { createApp } from "../functions/app.ts";
import { createContext } from "../functions/compose.ts";
import { bundleDeno } from "../functions/node/deno-bundle.ts";
import { freePort } from "../test/faults/pg-cluster.ts";
import { DENO, ROOT } from "./split-parts.ts";

const RUNS = Number(process.argv[2] ?? 7);
const START_TIMEOUT_MS = 30_000;
const ADMIN = "deno-cold-admin";
const pgUrl = process.env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const dbName = `formdown_bench_cold_${process.pid}_${Date.now()}`;
const work = mkdtempSync(join(tmpdir(), "formdown-deno-cold-"));
const admin = postgres(pgUrl, { max: 1, onnotice: () => {} });
const children = new Set<ChildProcess>();
let cleaned = false;

async function cleanUp() {
  if (cleaned) return;
  cleaned = true;
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  await admin.unsafe(`drop database if exists ${dbName} with (force)`).catch(() => {});
  await admin.end().catch(() => {});
  rmSync(work, { recursive: true, force: true });
}
for (const signal of ["SIGINT", "SIGTERM"] as const)
  process.once(signal, () => void cleanUp().finally(() => process.exit(130)));
const deadline = setTimeout(
  () => {
    console.error("deno-cold: timed out");
    void cleanUp().finally(() => process.exit(1));
  },
  (60 + RUNS * 5 * 35) * 1000,
);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const tcpOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect(port, "127.0.0.1");
    s.once("connect", () => {
      s.destroy();
      resolve(true);
    });
    s.once("error", () => resolve(false));
  });

/** Peak resident set (MiB) and CPU time so far (ms; user + system) of a live process (Linux). */
function usage(pid: number | undefined): { rss: number; cpu: number } {
  const rss = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  // utime and stime are fields 14 and 15, counted after the command name's closing parenthesis,
  // in clock ticks (USER_HZ, 100 on Linux)
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return {
    rss: rss ? Math.round(Number(rss[1]) / 1024) : Number.NaN,
    cpu: (Number(fields[11]) + Number(fields[12])) * 10,
  };
}

/** ms from spawn to the answer and to the open port; the process's CPU ms and peak RSS (MiB). */
type Run = { ms: number; listen: number; cpu: number; rss: number };

/** Spawns, waits for the port, sends the one request; ms from spawn to the expected status. */
async function coldStart(
  script: string,
  env: Record<string, string>,
  request: (port: number) => Promise<Response>,
  expected: number,
): Promise<Run> {
  const port = await freePort();
  const t0 = performance.now();
  const flags = (process.env.BENCH_DENO_FLAGS ?? "").split(" ").filter(Boolean);
  const child = spawn(DENO, ["run", "-A", ...flags, script], {
    cwd: ROOT,
    env: { ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
  let out = "";
  child.stdout!.on("data", (d) => {
    out += d;
  });
  child.stderr!.on("data", (d) => {
    out += d;
  });
  try {
    while (!(await tcpOpen(port))) {
      if (child.exitCode !== null) throw new Error(`${script} exited ${child.exitCode}:\n${out}`);
      if (performance.now() - t0 > START_TIMEOUT_MS)
        throw new Error(`${script} did not listen within ${START_TIMEOUT_MS} ms:\n${out}`);
      await sleep(5);
    }
    const listen = performance.now() - t0;
    const res = await request(port);
    const body = await res.text();
    const ms = performance.now() - t0;
    if (res.status !== expected)
      throw new Error(`${script}: ${res.status} instead of ${expected}: ${body}\n${out}`);
    return { ms, listen, ...usage(child.pid) };
  } finally {
    const gone = new Promise((r) => child.once("exit", r));
    child.kill("SIGKILL");
    if (child.exitCode === null && child.signalCode === null) await gone;
    children.delete(child);
  }
}

async function main() {
  await admin.unsafe(`create database ${dbName}`);
  const u = new URL(pgUrl);
  u.pathname = `/${dbName}`;
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? work,
    DATABASE_URL: u.toString(),
    FORMDOWN_ADMIN_TOKEN: ADMIN,
    // the limiter stays on (it is part of a submit), high enough for every run from one address
    FORMDOWN_RATE_SUBMIT: "100000",
    FORMDOWN_REPO_DIR: join(work, "repo"),
    FORMDOWN_DATA_DIR: join(work, "data"),
  };
  // migrated, an account, a published form without anti-bot: what the entry finds in production
  const ctx = await createContext(env);
  try {
    const app = createApp(ctx);
    const call = async (path: string, key: string, body: unknown) => {
      const res = await app.request(path, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
      const json = (await res.json()) as Record<string, unknown>;
      if (res.status !== 201) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const account = await call("/api/accounts", ADMIN, { handler: "cold", email: "c@example.com" });
    await call("/api/forms", account.api_key as string, {
      title: "Cold",
      slug: "cold",
      humanness: false,
      fields: [{ id: "note", type: "text", label: "Note" }],
    });
  } finally {
    await ctx.db.close();
  }

  // the entry as a serverless host starts it: bundled (npm run build:deno), away from the checkout
  const bundle = join(work, "deno");
  await bundleDeno(bundle);
  const submit = (p: number) =>
    fetch(`http://127.0.0.1:${p}/formdown/api/forms/cold/submit`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ fields: { note: "cold" } }),
    });
  const health = (p: number) => fetch(`http://127.0.0.1:${p}/formdown/api/health`);
  const source = "supabase/functions/formdown/index.ts";
  const built = join(bundle, "supabase.js");
  const kinds = {
    bare: () => coldStart("bench/deno-bare.ts", env, (p) => fetch(`http://127.0.0.1:${p}/`), 200),
    health: () => coldStart(built, env, health, 200),
    submit: () => coldStart(built, env, submit, 201),
    "source health": () => coldStart(source, env, health, 200),
    "source submit": () => coldStart(source, env, submit, 201),
  };
  type Name = keyof typeof kinds;
  const names = Object.keys(kinds) as Name[];
  // one unmeasured start of each: Deno's module and transpile caches are warm, as after a deploy
  for (const run of Object.values(kinds)) await run();
  const results = Object.fromEntries(names.map((n) => [n, []])) as unknown as Record<Name, Run[]>;
  // the machine is shared: the order turns each round, and each round's ratios are kept, so a
  // busy spell weighs on all of them alike
  for (let i = 0; i < RUNS; i++)
    for (let j = 0; j < names.length; j++) {
      const name = names[(i + j) % names.length]!;
      results[name].push(await kinds[name]());
    }

  const med = (name: Name, key: keyof Run = "ms") => median(results[name].map((r) => r[key]));
  const low = (name: Name) => Math.min(...results[name].map((r) => r.ms));
  const pad = (n: number, w = 7) => n.toFixed(0).padStart(w);
  const line = (name: Name, what: string) =>
    `${what.padEnd(48)}${pad(med(name))}${pad(low(name))}${pad(med(name, "listen"), 10)}${pad(med(name, "cpu"))}${pad(med(name, "rss"), 6)} MiB`;
  const ratio = (name: Name, key: keyof Run = "ms") =>
    `${(med(name, key) / med("bare", key)).toFixed(2)}×`;
  const paired = (name: Name) =>
    `${median(results[name].map((r, i) => r.ms / results.bare[i]!.ms)).toFixed(2)}×`;
  console.log(
    [
      `deno-cold: ${RUNS} rounds of five fresh processes; ms from spawn (medians unless said)`,
      `${"".padEnd(48)} answer    min listening    CPU   peak RSS`,
      line("bare", "limit: bare Deno.serve + select 1 → 200"),
      line("health", "entry, bundled: first GET /api/health → 200"),
      line("submit", "entry, bundled: first submit → 201"),
      line("source health", "entry from its .ts files: first health → 200"),
      line("source submit", "entry from its .ts files: first submit → 201"),
      `bundled: health/bare ${ratio("health")} (each round's ratio: ${paired("health")}), submit/bare ${ratio("submit")} (${paired("submit")}); goal ≤ 1.5×`,
      `from .ts: health/bare ${ratio("source health")} (${paired("source health")}), submit/bare ${ratio("source submit")} (${paired("source submit")})`,
      `CPU bundled health/bare ${ratio("health", "cpu")}, submit/bare ${ratio("submit", "cpu")}`,
      ...names.map(
        (n) => `${`${n}:`.padEnd(15)}${results[n].map((r) => r.ms.toFixed(0)).join(" ")}`,
      ),
    ].join("\n"),
  );
}

main()
  .then(
    () => {},
    (error) => {
      console.error(error);
      process.exitCode = 1;
    },
  )
  .finally(async () => {
    clearTimeout(deadline);
    await cleanUp();
  });
