// The fault scenarios, shared by the short suites (test/faults/*.test.ts, in `npm test`) and the
// long runs (`node bench/faults.ts`). Each drives a real server under submit load, injects one
// fault, and reads every acknowledged response back through every read path.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import postgres from "postgres";
import { type ChildServer, firstKey, startChild } from "./child-server.ts";
import { FAULT_FORM, type Outcome, submitLoad, summarise } from "./load.ts";
import type { PgCluster } from "./pg-cluster.ts";
import { type ReadBack, readBack } from "./read-back.ts";

const ROOT = resolve(new URL("../../", import.meta.url).pathname);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function createForm(base: string, key: string): Promise<void> {
  const res = await fetch(`${base}/api/forms`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(FAULT_FORM),
  });
  if (res.status !== 201) throw new Error(`create form: ${res.status} ${await res.text()}`);
}

function runCli(args: string[]): Promise<{ status: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [join(ROOT, "cli/formdown.ts"), ...args], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.once("close", (status) => done({ status, stderr }));
  });
}

export interface PostgresRestartResult {
  outcomes: Outcome[];
  summary: ReturnType<typeof summarise>;
  /** ms from Postgres accepting connections again to the first 201 completed after it. */
  firstAckAfterBackMs: number | null;
  /** How long `pg_ctl stop -m fast` took under the load. */
  stopMs: number;
  /** `formdown list` while Postgres was down: its exit code and what it printed. */
  cli: { status: number | null; stderr: string };
  /** /api/health answers while Postgres was down, and after it was back. */
  healthDown: number[];
  healthUp: number[];
  readBack: ReadBack;
  /** `select count(*)` of the form's responses. */
  sqlCount: number;
  output: string;
}

/**
 * A real server (`node functions/node/start.ts`) on the throwaway cluster under submit load;
 * Postgres stopped (fast) for `outageMs` mid-load, then started again.
 */
export async function postgresRestartUnderLoad(
  cluster: PgCluster,
  options: { concurrency: number; beforeMs: number; outageMs: number; afterMs: number },
): Promise<PostgresRestartResult> {
  const dataDir = mkdtempSync(join(tmpdir(), "formdown-fault-data-"));
  let server: ChildServer | null = null;
  try {
    server = await startChild({ dataDir, env: { DATABASE_URL: cluster.url } });
    const key = firstKey(dataDir);
    await createForm(server.url, key);
    let done = false;
    const load = submitLoad(server.url, FAULT_FORM.slug, {
      concurrency: options.concurrency,
      stop: () => done,
    });
    const health = async () =>
      (await fetch(`${server!.url}/api/health`, { signal: AbortSignal.timeout(5000) })).status;
    await sleep(options.beforeMs);
    const stopMs = cluster.stop("fast");
    const healthDown: number[] = [];
    // the CLI's request waits out the gate (4 s), so the outage lasts at least that long
    const cliRun = runCli(["list", "--url", server.url, "--key", key]);
    let cliDone = false;
    void cliRun.finally(() => {
      cliDone = true;
    });
    const downUntil = performance.now() + options.outageMs;
    while (performance.now() < downUntil || !cliDone) {
      healthDown.push(await health());
      await sleep(250);
    }
    const cli = await cliRun;
    cluster.start();
    const back = performance.now();
    await sleep(options.afterMs);
    const healthUp = [await health()];
    done = true;
    const outcomes = await load;
    const firstAck = outcomes
      .filter((o) => o.status === 201 && o.at > back)
      .reduce((min, o) => Math.min(min, o.at), Number.POSITIVE_INFINITY);
    const sql = postgres(cluster.url, { max: 1, onnotice: () => {} });
    const [row] = await sql<{ n: number }[]>`select count(*)::int as n from responses`;
    await sql.end();
    return {
      outcomes,
      summary: summarise(outcomes),
      firstAckAfterBackMs: Number.isFinite(firstAck) ? Math.round(firstAck - back) : null,
      stopMs: Math.round(stopMs),
      cli,
      healthDown,
      healthUp,
      readBack: await readBack(server.url, key, FAULT_FORM.slug),
      sqlCount: row!.n,
      output: server.output(),
    };
  } finally {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
