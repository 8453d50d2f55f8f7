import { raise } from "../../src/core/errors.ts";
import type { Db } from "../db/db.ts";

/**
 * Fixed one-minute windows counted in the database, so every instance shares them. Returns
 * nothing when under the limit; raises 429 with Retry-After otherwise. `limit` 0 turns it off.
 */
export async function hit(db: Db, bucket: string, limit: number): Promise<void> {
  if (limit <= 0) return;
  const [row] = await db.query<{ hits: number; retry: number }>(
    `insert into rate_limits (bucket, window_start, hits) values ($1, date_trunc('minute', now()), 1)
     on conflict (bucket, window_start) do update set hits = rate_limits.hits + 1
     returning hits, (60 - extract(second from now()))::int as retry`,
    [bucket],
    { prepare: true },
  );
  if (row && row.hits > limit) {
    raise("rate_limited", "Too many requests; try again shortly.", {
      retryAfter: Math.max(1, row.retry),
    });
  }
}

/** Old windows are useless after a minute; the sweep keeps the table small. */
export async function sweepRateLimits(db: Db): Promise<void> {
  await db.query("delete from rate_limits where window_start < now() - interval '5 minutes'");
}
