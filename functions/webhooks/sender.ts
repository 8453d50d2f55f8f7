// Drains webhook deliveries, apart from the email outbox: its own loop and its own limit on
// attempts in flight, so a slow or hanging receiver holds only its own slots — never a submit,
// never an email. Rows are claimed in batches and outcomes written in batches (queue.ts).

import type { AppContext } from "../context.ts";
import { outageKind } from "../db/outage.ts";
import { attemptDelivery } from "./deliver.ts";
import { claimDeliveries, type Outcome, recordOutcomes, sweepOrphans } from "./queue.ts";

/** The shortest time between two claims, and between two writes of outcomes. */
const GAP_MS = 50;
/** Outcomes written at once when this many are waiting. */
const BATCH = 256;

const leaseSeconds = (ctx: AppContext) => Math.ceil(ctx.config.webhooks.timeoutMs / 1000) + 5;

/** Serverless (functions/deno/drain.ts): delivers what is due, up to `max`, and returns. */
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
    await recordOutcomes(ctx.db, outcomes);
    for (const o of outcomes) counts[o.status === "pending" ? "retrying" : o.status]++;
    if (rows.length < batch) break;
  }
  return counts;
}

const senders = new WeakMap<AppContext, () => void>();

/** Tells this process's sender that a delivery is due now (a submit just wrote one). */
export function wakeWebhookSender(ctx: AppContext): void {
  senders.get(ctx)?.();
}

/**
 * The in-process sender of the Node server: polls every `everyMs` for work (other instances'
 * submits, retries coming due) and is woken at once by this process's own submits. Up to
 * `concurrency` attempts run at a time; outcomes are written together as attempts finish.
 */
export function startWebhookSender(ctx: AppContext, everyMs = 1000): () => Promise<void> {
  let inFlight = 0;
  let claiming = false;
  let missed = false;
  let stopped = false;
  let soon: ReturnType<typeof setTimeout> | null = null;
  const outcomes: Outcome[] = [];
  let flushing: Promise<void> | null = null;

  // Outcomes are written together, at most every GAP_MS (sooner once a full batch is waiting):
  // under load the sender costs the database a few statements a second, not two per delivery.
  let flushTimer: ReturnType<typeof setTimeout> | null = null;
  let lastFlush = 0;
  function flush() {
    if (flushing || flushTimer || outcomes.length === 0) return;
    const wait = outcomes.length >= BATCH ? 0 : lastFlush + GAP_MS - Date.now();
    if (wait > 0 && !stopped) {
      flushTimer = setTimeout(() => {
        flushTimer = null;
        flush();
      }, wait);
      return;
    }
    lastFlush = Date.now();
    const batch = outcomes.splice(0);
    flushing = recordOutcomes(ctx.db, batch)
      .catch((e) => ctx.log.error("webhook outcomes could not be recorded", e))
      .finally(() => {
        flushing = null;
        flush();
      });
  }

  async function claim() {
    const capacity = ctx.config.webhooks.concurrency - inFlight;
    if (claiming) missed = true;
    if (stopped || claiming || capacity <= 0) return;
    claiming = true;
    lastClaim = Date.now();
    try {
      const rows = await claimDeliveries(ctx.db, capacity, leaseSeconds(ctx));
      for (const row of rows) {
        inFlight++;
        attemptDelivery(ctx, row).then((outcome) => {
          inFlight--;
          // stopping: the database is closing; the lease brings the row back to the next sender
          if (stopped) return;
          outcomes.push(outcome);
          flush();
          schedule();
        });
      }
      // a full batch: more may be waiting
      if (rows.length === capacity) schedule();
    } catch (error) {
      // an unreachable database is logged once by its adapter, not on every claim here
      if (!stopped && outageKind(error) === null) ctx.log.error("webhook drain failed", error);
    } finally {
      claiming = false;
      // a wake-up that came while this claim ran may concern rows it could not see yet
      if (missed) {
        missed = false;
        schedule();
      }
    }
  }

  // Wake-ups arriving together (a burst of submits, finished attempts) share one claim, and
  // claims come at most every GAP_MS: an idle sender answers a submit within milliseconds, a
  // busy one claims in batches.
  let lastClaim = 0;
  function schedule() {
    if (soon || stopped) return;
    soon = setTimeout(
      () => {
        soon = null;
        void claim();
      },
      Math.max(2, lastClaim + GAP_MS - Date.now()),
    );
  }

  const timer = setInterval(() => void claim(), everyMs);
  timer.unref();
  const sweep = setInterval(() => {
    sweepOrphans(ctx.db).catch((e) => ctx.log.error("webhook sweep failed", e));
  }, 60_000);
  sweep.unref();
  senders.set(ctx, schedule);
  return async () => {
    stopped = true;
    clearInterval(timer);
    clearInterval(sweep);
    if (soon) clearTimeout(soon);
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = null;
    senders.delete(ctx);
    flush();
    await flushing;
  };
}
