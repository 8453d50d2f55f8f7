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
    else stopMs = cluster.stop("fast");
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
    else cluster.start();
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

export interface KillNineResult {
  before: ReturnType<typeof summarise>;
  /** Submits after the restart on the same data (the server must take them). */
  after: ReturnType<typeof summarise>;
  readBack: ReadBack;
  /** `select count(*)` through the restarted server's own database (Postgres) or null. */
  sqlCount: number | null;
  restartMs: number;
  output: string;
}

/**
 * A real server under submit load killed with SIGKILL mid-load, then started again on the same
 * data (PGlite: the same data directory; Postgres: the same database); every submit it
 * acknowledged before dying must be there, through every read path.
 */
export async function killNineUnderLoad(options: {
  concurrency: number;
  loadMs: number;
  /** DATABASE_URL, or none for PGlite in the data dir. */
  databaseUrl?: string;
}): Promise<KillNineResult> {
  const dataDir = mkdtempSync(join(tmpdir(), "formdown-fault-data-"));
  const env: Record<string, string> = options.databaseUrl
    ? { DATABASE_URL: options.databaseUrl }
    : {};
  let server: ChildServer | null = null;
  try {
    server = await startChild({ dataDir, env });
    const key = firstKey(dataDir);
    await createForm(server.url, key);
    let done = false;
    const load = submitLoad(server.url, FAULT_FORM.slug, {
      concurrency: options.concurrency,
      stop: () => done,
    });
    await sleep(options.loadMs);
    await server.kill9();
    done = true;
    const before = summarise(await load);
    const started = performance.now();
    server = await startChild({ dataDir, env });
    const restartMs = Math.round(performance.now() - started);
    let n = 0;
    const after = summarise(
      await submitLoad(server.url, FAULT_FORM.slug, { concurrency: 4, stop: () => n++ >= 40 }),
    );
    let sqlCount: number | null = null;
    if (options.databaseUrl) {
      const sql = postgres(options.databaseUrl, { max: 1, onnotice: () => {} });
      const [row] = await sql<{ n: number }[]>`select count(*)::int as n from responses`;
      await sql.end();
      sqlCount = row!.n;
    }
    return {
      before,
      after,
      readBack: await readBack(server.url, key, FAULT_FORM.slug),
      sqlCount,
      restartMs,
      output: server.output(),
    };
  } finally {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export interface MailOutageResult {
  acknowledged: number;
  /** Subjects as Postmark received them, in arrival order. */
  subjects: string[];
  /** Failed deliveries Postmark answered with its 500 while down. */
  refused: number;
  /** ms from Postmark coming back to the last email arriving. */
  deliveredMs: number;
  output: string;
}

/**
 * Postmark (the loopback fake) down while `count` submits arrive, each due an email (plus a
 * milestone), then up again: the server's own sender must deliver every email exactly once.
 */
export async function mailOutage(options: {
  count: number;
  downMs: number;
  /** How long to watch for duplicates after the last expected email. */
  settleMs: number;
}): Promise<MailOutageResult> {
  const { startPostmarkFake } = await import("../fakes/postmark.ts");
  const postmark = await startPostmarkFake();
  let refused = 0;
  const dataDir = mkdtempSync(join(tmpdir(), "formdown-fault-data-"));
  let server: ChildServer | null = null;
  try {
    server = await startChild({
      dataDir,
      env: { POSTMARK_SERVER_TOKEN: "pm-fault-token", POSTMARK_API_URL: postmark.url },
    });
    const key = firstKey(dataDir);
    const res = await fetch(`${server.url}/api/forms`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({
        ...FAULT_FORM,
        slug: "mail",
        notifications: {
          email: ["owner@example.com"],
          subject: "R {field:note}",
          strategy: { immediate_count: options.count, milestones: { absolute: [options.count] } },
        },
      }),
    });
    if (res.status !== 201) throw new Error(`create form: ${res.status} ${await res.text()}`);
    postmark.fail(true);
    const before = postmark.sent.length;
    let n = 0;
    const outcomes = await submitLoad(server.url, "mail", {
      concurrency: 8,
      stop: () => n++ >= options.count,
      fields: (i) => ({ note: `#${i}` }),
    });
    const acknowledged = summarise(outcomes).acknowledged.length;
    await sleep(options.downMs);
    // the fake counts nothing it refused; the outbox says how many tries failed
    const outbox = (await (
      await fetch(`${server.url}/api/outbox?limit=200`, {
        headers: { authorization: `Bearer ${key}` },
      })
    ).json()) as { emails: { attempts: number; status: string }[] };
    refused = outbox.emails.filter((e) => e.status === "pending" && e.attempts > 0).length;
    postmark.fail(false);
    const back = performance.now();
    const expected = acknowledged + 1;
    const deadline = back + 60_000;
    while (postmark.sent.length - before < expected && performance.now() < deadline)
      await sleep(100);
    const deliveredMs = Math.round(performance.now() - back);
    await sleep(options.settleMs);
    return {
      acknowledged,
      subjects: postmark.sent.slice(before).map((e) => e.Subject),
      refused,
      deliveredMs,
      output: server.output(),
    };
  } finally {
    await server?.stop();
    await postmark.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
