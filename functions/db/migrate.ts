import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import type { Db } from "./db.ts";

const SAFE_NAME = /^[A-Za-z0-9_.-]+\.sql$/;

export const MIGRATIONS_DIR = new URL("../../supabase/migrations/", import.meta.url).pathname;

/** The migrations by file name, written into the Deno bundle at its build (deno-bundle.ts). */
declare const __FORMDOWN_MIGRATIONS__: Record<string, string> | undefined;
const bundled = typeof __FORMDOWN_MIGRATIONS__ === "undefined" ? null : __FORMDOWN_MIGRATIONS__;

/** The migrations in `dir` by file name, each read when asked; in the Deno bundle, those it carries. */
export async function migrationFiles(dir: string): Promise<Map<string, () => Promise<string>>> {
  if (bundled && dir === MIGRATIONS_DIR)
    return new Map(Object.entries(bundled).map(([file, sql]) => [file, async () => sql]));
  const files = (await readdir(dir)).filter((f) => f.endsWith(".sql"));
  return new Map(files.map((file) => [file, () => readFile(join(dir, file), "utf8")]));
}

/**
 * Applies supabase/migrations/*.sql in name order, each once, on PGlite and Postgres alike.
 * Each migration is recorded first inside its own transaction: a concurrent start blocks on that
 * row's unique key and then fails with a duplicate, which means the other process applied it.
 */
export async function migrate(db: Db, dir = MIGRATIONS_DIR): Promise<string[]> {
  const found = await migrationFiles(dir);
  const files = [...found.keys()].sort();
  const done = await appliedMigrations(db);
  const applied: string[] = [];
  for (const file of files) {
    if (done.has(file)) continue;
    if (!SAFE_NAME.test(file)) throw new Error(`migration file name not allowed: ${file}`);
    const sql = await found.get(file)!();
    // One script per migration, recorded in the same transaction (db.exec runs the script in
    // one, and rolls it back on error), so a failure leaves nothing half-done. The script holds
    // no BEGIN/COMMIT of its own: nested in exec's transaction they only drew warnings. The name
    // is checked against SAFE_NAME above, so it can sit in the script.
    const script = `insert into formdown_migrations (name) values ('${file}');\n${sql}\n;`;
    try {
      await db.exec(script);
      applied.push(file);
    } catch (error) {
      if ((error as { code?: string }).code !== "23505") throw error;
    }
  }
  return applied;
}

/**
 * The names of the migrations applied. The table is created only on a database without it: every
 * later start (a cold start of an edge function among them) reads it in one round trip.
 */
async function appliedMigrations(db: Db): Promise<Set<string>> {
  const read = async () =>
    new Set(
      (await db.query<{ name: string }>("select name from formdown_migrations")).map((r) => r.name),
    );
  try {
    return await read();
  } catch (error) {
    // undefined_table; anything else (the database unreachable) is the caller's to hear
    if ((error as { code?: string }).code !== "42P01") throw error;
    await db.query(
      "create table if not exists formdown_migrations (name text primary key, applied_at timestamptz not null default now())",
    );
    return read();
  }
}
