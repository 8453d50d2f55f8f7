// The scheduled drain (serverless deployments, `npx formdown drain`, functions/deno/drain.ts):
// delivers due emails and due webhook deliveries until none is due or the time budget
// (FORMDOWN_DRAIN_BUDGET_MS, default 50 s: a run every minute never overlaps the next by much)
// is spent. The two queues drain side by side, so a hanging receiver cannot hold the emails back.
// Each run also tries the day's retention run (services/retention.ts), which one run a day gets.

import { teamUpkeep } from "./audit/upkeep.ts";
import type { AppContext } from "./context.ts";
import { drainOutbox, sendDue } from "./mail/sender.ts";
import { enforceRetention } from "./services/retention.ts";
import { drainWebhooks } from "./webhooks/drain.ts";

export interface DrainCounts {
  sent: number;
  failed: number;
  webhooks: { delivered: number; retrying: number; failed: number };
  /** True when the budget ran out with work still due. */
  unfinished: boolean;
  /** Responses past their form's retention_days deleted by this run (SPEC §25). */
  retention_deleted: number;
}

const EMAIL_BATCH = 100;
const WEBHOOK_BATCH = 500;

export async function drainDue(ctx: AppContext, budgetMs = ctx.config.drainBudgetMs) {
  const until = Date.now() + budgetMs;
  const counts: DrainCounts = {
    sent: 0,
    failed: 0,
    webhooks: { delivered: 0, retrying: 0, failed: 0 },
    unfinished: false,
    retention_deleted: 0,
  };
  const emails = async () => {
    // digests are enqueued once a run; then batches until a batch comes back short
    let batch = await sendDue(ctx, EMAIL_BATCH, () => Date.now() > until);
    for (;;) {
      counts.sent += batch.sent;
      counts.failed += batch.failed;
      if (batch.sent + batch.failed < EMAIL_BATCH) return;
      if (Date.now() > until) {
        counts.unfinished = true;
        return;
      }
      batch = await drainOutbox(ctx, EMAIL_BATCH, () => Date.now() > until);
    }
  };
  const webhooks = async () => {
    for (;;) {
      const batch = await drainWebhooks(ctx, WEBHOOK_BATCH);
      counts.webhooks.delivered += batch.delivered;
      counts.webhooks.retrying += batch.retrying;
      counts.webhooks.failed += batch.failed;
      if (batch.delivered + batch.retrying + batch.failed < WEBHOOK_BATCH) return;
      if (Date.now() > until) {
        counts.unfinished = true;
        return;
      }
    }
  };
  const retention = async () => {
    counts.retention_deleted = (await enforceRetention(ctx)).deleted;
  };
  // the audit log's rows past 365 days and old sessions, as the Node server's minute sweep
  await Promise.all([emails(), webhooks(), retention(), teamUpkeep(ctx.db, 2)]);
  return counts;
}
