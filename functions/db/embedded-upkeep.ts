// The embedded database's upkeep. PGlite runs Postgres in one process without its background
// workers, so no autovacuum: nothing ever ANALYZEs or VACUUMs a table. Without statistics the
// planner takes a table of a hundred thousand responses for an empty one, and an export's every
// batch of 1,000 rows scanned and sorted all of them (100,000 rows: 10.4 s, 1.5 s once analyzed);
// without VACUUM, updated rows (counters, deliveries, the outbox) are never reclaimed.
//
// Postgres' own counters for autovacuum's thresholds stay at zero in PGlite, so growth is read
// from the files instead: a table is vacuumed and analyzed when it has grown by a tenth (and
// eight pages) since the database last looked at it (`relpages`), or was never looked at.
// VACUUM skips the pages it has already seen all-visible, so each pass costs what changed.
import type { Db } from "./db.ts";

/** The names our migrations give tables: written into the statement, so checked first. */
const NAME = /^[a-z_][a-z0-9_]*$/;

/** Vacuums and analyzes the tables that grew; answers their names. */
export async function embeddedUpkeep(db: Db): Promise<string[]> {
  const tables = await db.query<{ name: string; pages: number; seen: number; tuples: number }>(
    `select c.relname as name, (pg_relation_size(c.oid) / 8192)::int as pages,
            c.relpages as seen, c.reltuples as tuples
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r'`,
  );
  const due = tables.filter(
    (t) => NAME.test(t.name) && t.pages > 0 && (t.tuples < 0 || t.pages > t.seen * 1.1 + 8),
  );
  for (const t of due) await db.query(`vacuum (analyze) ${t.name}`);
  return due.map((t) => t.name);
}
