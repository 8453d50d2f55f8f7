// Webhook deliveries on serverless (functions/drain-due.ts, from functions/deno/drain.ts every
// minute): no sender runs between requests, so a drain claims what is due, sends it, records the
// outcomes and sweeps as the Node server's sender does, then returns.
import type { AppContext } from "../context.ts";
import { retried } from "../db/retry.ts";
import { attemptDelivery, logFailedAttempt } from "./deliver.ts";
import { leaseSeconds } from "./handover.ts";
import { claimDeliveries, pruneDeliveries, recordOutcomes, sweepOrphans } from "./queue.ts";

/**
 * Serverless (functions/deno/drain.ts, every minute): delivers what is due, up to `max`, sweeps
 * like the Node server's sender, and returns.
 */
export async function drainWebhooks(
  ctx: AppContext,
  max = 200,
): Promise<{ delivered: number; retrying: number; failed: number }> {
  const counts = { delivered: 0, retrying: 0, failed: 0 };
  let taken = 0;
  while (taken < max) {
    const batch = Math.min(ctx.config.webhooks.concurrency, max - taken);
    const rows = await claimDeliveries(ctx.db, batch, leaseSeconds(ctx));
    if (rows.length === 0) break;
    taken += rows.length;
    const outcomes = await Promise.all(rows.map((row) => attemptDelivery(ctx, row)));
    await retried(() => recordOutcomes(ctx.db, outcomes));
    for (const [i, o] of outcomes.entries()) {
      logFailedAttempt(ctx, rows[i]!, o);
      counts[o.status === "pending" ? "retrying" : o.status]++;
    }
    if (rows.length < batch) break;
  }
  // what the Node server's sweep does every minute: orphans, then the log's old rows
  await sweepOrphans(ctx.db);
  await pruneDeliveries(ctx.db, ctx.config.webhooks.retentionDays, 2);
  return counts;
}
