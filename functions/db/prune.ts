import { ownTurn } from "../http/body.ts";
import type { Db } from "./db.ts";

/**
 * Runs `step` (one statement on at most `size` rows; answers how many it took) until it takes
 * fewer, at most `rounds` times, each after the first in a turn of the event loop of its own (on
 * PGlite a statement holds the loop: one for a whole backlog held it seconds); answers the total.
 */
export async function inBatches(
  size: number,
  step: () => Promise<number>,
  rounds = Number.POSITIVE_INFINITY,
): Promise<number> {
  let total = 0;
  for (let i = 0; i < rounds; i++) {
    if (i > 0) await ownTurn();
    const n = await step();
    total += n;
    if (n < size) break;
  }
  return total;
}

/** Rows removed by one statement; a sweep runs a few, so a long backlog goes in steps. */
const PRUNE_BATCH = 5000;

/**
 * Deletes from `table` the rows `old` (a fixed condition on `$1`, `days`) picks, `PRUNE_BATCH` at a
 * time and at most `rounds` times, each round in a turn of the event loop of its own; answers how
 * many went. The rows are found by their ids (`= any(array(…))`): `id in (…)` hashed the batch and
 * scanned the whole table each round, and the rounds ran back to back without the loop turning
 * (40,000 old deliveries among 300,000 held PGlite's loop 2.4 s, every minute of a backlog).
 */
export async function pruneRows(
  db: Db,
  table: "audit_log" | "webhook_deliveries",
  old: string,
  days: number,
  rounds: number,
): Promise<number> {
  const statement = `with gone as (delete from ${table} where id = any(array(select id from ${table} where ${old} limit $2))
         returning 1)
       select count(*)::int as n from gone`;
  return inBatches(
    PRUNE_BATCH,
    async () => (await db.query<{ n: number }>(statement, [days, PRUNE_BATCH]))[0]?.n ?? 0,
    rounds,
  );
}
