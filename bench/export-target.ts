// The server for bench/export.ts, in its own process so its memory is measured alone.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openPostgres, wrapPglite } from "../functions/db/db.ts";
import { migrate } from "../functions/db/migrate.ts";
import { openPglite } from "../functions/db/pglite.ts";
import { warmCompileCache } from "../functions/node/low-memory.ts";
import { startServer } from "../functions/node/server.ts";
import { createAccount } from "../functions/services/accounts.ts";

// bench/as-started.ts: the server's modules, this one's too, into the compile cache
if (process.argv[2] === "warm") await warmCompileCache().then(() => process.exit(0));
const [kind, url, kept] = process.argv.slice(2) as ["pglite" | "postgres", string?, string?];
// a directory given is kept: the server restarted on it finds its data and its account again
// (bench/xlsx.ts measures an export as a server long running after the responses came)
const dir = kept ?? mkdtempSync(join(tmpdir(), "bench-export-"));
const db = kind === "postgres" ? openPostgres(url!) : wrapPglite(await openPglite(join(dir, "pg")));
await migrate(db);
const s = await startServer({
  env: { FORMDOWN_DATA_DIR: dir, FORMDOWN_REPO_DIR: dir, FORMDOWN_RATE_API: "0" },
  db,
  port: 0,
  host: "127.0.0.1",
  skipRepositoryForms: true,
  outboxSender: false,
  log: { info() {}, error: console.error },
});
const keyFile = join(dir, "bench-key");
const key = existsSync(keyFile)
  ? readFileSync(keyFile, "utf8")
  : (await createAccount(s.ctx, { handler: "bench" })).api_key;
writeFileSync(keyFile, key);
// the parent fills a PGlite database through this process (one process owns it); every
// message is answered, a failure too, so the parent never waits for an answer that cannot come
type Ask = { sql: string; params: unknown[] } | { memory: true } | { close: true };
process.on("message", async (m: Ask) => {
  // bench/xlsx.ts: where the memory is (heap, outside it, buffers) while an export streams
  if ("memory" in m) return void process.send!({ memory: process.memoryUsage() });
  // a stop as `npm start`'s on SIGTERM: the database closed, its files complete for a restart
  if ("close" in m) {
    await s.close();
    process.exit(0);
  }
  try {
    process.send!({ rows: await s.ctx.db.query(m.sql, m.params) });
  } catch (error) {
    process.send!({ error: String((error as Error).message ?? error) });
  }
});
console.log(`READY ${s.url} ${key}`);
