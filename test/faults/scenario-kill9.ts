// kill -9 of the server under load (see scenarios.ts).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { type ChildServer, firstKey, startChild } from "./child-server.ts";
import { createForm, sleep } from "./common.ts";
import { FAULT_FORM, submitLoad, summarise } from "./load.ts";
import { type ReadBack, readBack } from "./read-back.ts";

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
