import { raise } from "../../src/core/errors.ts";
import type { AppContext } from "../context.ts";
import type { Db } from "../db/db.ts";

/**
 * Counts one hit on `bucket` in the instance's limiter (functions/limiter/rate-limiter.ts): no
 * statement on the way; raises 429 with Retry-After when over the limit. `limit` 0 turns it off.
 */
export function hit(ctx: AppContext, bucket: string, limit: number): void {
  const retryAfter = ctx.limiter.take(bucket, limit);
  if (retryAfter > 0) {
    raise("rate_limited", "Too many requests; try again shortly.", { retryAfter });
  }
}

/** Raises 429 when `bucket` is already over the limit, without counting a hit. */
export function refuseOver(ctx: AppContext, bucket: string, limit: number): void {
  const retryAfter = ctx.limiter.over(bucket, limit);
  if (retryAfter > 0) {
    raise("rate_limited", "Too many requests; try again shortly.", { retryAfter });
  }
}

/** Old windows are useless after a minute; the sweep keeps the table small. */
export async function sweepRateLimits(db: Db): Promise<void> {
  await db.query("delete from rate_limits where window_start < now() - interval '5 minutes'");
}
