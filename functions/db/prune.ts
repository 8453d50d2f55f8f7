import type { Db } from "./db.ts";

/** Rows removed by one statement; a sweep runs a few, so a long backlog goes in steps. */
const PRUNE_BATCH = 5000;

/**
 * Deletes from `table` the rows `old` (a fixed condition on `$1`, `days`) picks, `PRUNE_BATCH` at a
 * time and at most `rounds` times; answers how many went.
 */
export async function pruneRows(
  db: Db,
  table: "audit_log" | "webhook_deliveries",
  old: string,
  days: number,
  rounds: number,
): Promise<number> {
  let removed = 0;
  for (let i = 0; i < rounds; i++) {
    const [row] = await db.query<{ n: number }>(
      `with gone as (delete from ${table} where id in (select id from ${table} where ${old} limit $2)
         returning 1)
       select count(*)::int as n from gone`,
      [days, PRUNE_BATCH],
    );
    removed += row?.n ?? 0;
    if ((row?.n ?? 0) < PRUNE_BATCH) break;
  }
  return removed;
}
