// Postgres going away under load (see scenarios.ts).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { type ChildServer, firstKey, startChild } from "./child-server.ts";
import { createForm, runCli, sleep } from "./common.ts";
import { FAULT_FORM, type Outcome, submitLoad, summarise } from "./load.ts";
import type { PgCluster } from "./pg-cluster.ts";
import { type ReadBack, readBack } from "./read-back.ts";

export interface PostgresRestartResult {
  outcomes: Outcome[];
  summary: ReturnType<typeof summarise>;
  /** ms from Postgres accepting connections again to the first 201 completed after it. */
  firstAckAfterBackMs: number | null;
  /** How long `pg_ctl stop -m fast` took under the load. */
  stopMs: number;
  /** The form's page while Postgres was down. */
  page: { status: number; retryAfter: string | null; text: string };
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
  options: {
    concurrency: number;
    beforeMs: number;
    outageMs: number;
    afterMs: number;
    /** Run `formdown list` during the outage (it waits out the gate: the outage lasts ≥ 3.5 s). */
    cli?: boolean;
    /** `stop` (default): pg_ctl stop -m fast, then start; `freeze`: SIGSTOP, then SIGCONT. */
    fault?: "stop" | "freeze";
  },
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
    const freeze = options.fault === "freeze";
    let stopMs = 0;
    if (freeze) cluster.freeze();
    else stopMs = await cluster.stop("fast");
    const healthDown: number[] = [];
    // the CLI's request waits out the gate (3.5 s), so the outage lasts at least that long
    const cliRun =
      options.cli === false
        ? Promise.resolve({ status: null, stderr: "" })
        : runCli(["list", "--url", server.url, "--key", key]);
    let cliDone = false;
    void cliRun.finally(() => {
      cliDone = true;
    });
    // a respondent opening the form meanwhile (the page reads the form from the database)
    const pageRes = await fetch(`${server.url}/@me/${FAULT_FORM.slug}`, {
      signal: AbortSignal.timeout(10_000),
    });
    const page = {
      status: pageRes.status,
      retryAfter: pageRes.headers.get("retry-after"),
      text: await pageRes.text(),
    };
    const downUntil = performance.now() + options.outageMs;
    while (performance.now() < downUntil || !cliDone) {
      healthDown.push(await health());
      await sleep(250);
    }
    const cli = await cliRun;
    if (freeze) cluster.thaw();
    else await cluster.start();
    const back = performance.now();
    await sleep(options.afterMs);
    const healthUp = [await health()];
    done = true;
    const outcomes = await load;
    // "back" is logged once the database has stayed up for a second (functions/db/gate.ts): on a
    // busy machine the restart, and any flapping while the pool reconnects, can take that past
    // afterMs. An outage told is awaited to be told over (up to 10 s), not assumed to be by a
    // fixed pause (a CI run once read the output a moment before it)
    const told = (what: RegExp) => server!.output().match(what)?.length ?? 0;
    for (let waited = 0; waited < 10_000; waited += 100) {
      if (told(/cannot be reached/g) <= told(/answers again/g)) break;
      await sleep(100);
    }
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
      page,
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
