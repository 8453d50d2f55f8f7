// Sends webhook deliveries, apart from the email outbox: its own loop and limit on attempts in
// flight, so a slow or hanging receiver holds only its own slots — never a submit, never an email.
// Rows are claimed and outcomes written in batches (queue.ts). This process's own submits hand
// theirs straight to it (handover.ts): leased to it on Postgres, without a row on PGlite
// (handed-over.ts), so they cost no claim query. Serverless drains: drain.ts.

import type { AppContext } from "../context.ts";
import { outageKind } from "../db/outage.ts";
import { retried } from "../db/retry.ts";
import { within } from "../http/draining.ts";
import { attemptDelivery, logFailedAttempt } from "./deliver.ts";
import { openDeliveries, recoverHandedOver, unattempted, unwrittenRow } from "./handed-over.ts";
import { GAP_MS, leaseSeconds, registerSender, type Sender, withoutRows } from "./handover.ts";
import {
  type Claimed,
  claimDeliveries,
  type Outcome,
  pruneDeliveries,
  recordOutcomes,
  sweepOrphans,
} from "./queue.ts";
import { count, perReceiver, perReceiverLine } from "./receiver-slots.ts";

/** Outcomes written at once when this many are waiting. */
const BATCH = 256;

/**
 * On PGlite (handover.ts withoutRows) outcomes are written at most every 250 ms, up to 1,024 at
 * once: each statement's fixed cost is the server's own CPU there (about a millisecond, against
 * 4 µs a delivery), and an outcome not yet written when the process is killed only means that
 * delivery is sent again after the restart (at least once, as a lease's end does on Postgres).
 */
const [EMBEDDED_GAP_MS, EMBEDDED_BATCH] = [250, 1024];

/**
 * The in-process sender of the Node server: polls every `everyMs` for work (other instances'
 * submits, retries coming due) and is woken at once by this process's own submits. Up to
 * `concurrency` attempts run at a time; outcomes are written together as attempts finish.
 */
export function startWebhookSender(
  ctx: AppContext,
  everyMs = 1000,
): (waitMs?: number) => Promise<void> {
  const { concurrency } = ctx.config.webhooks;
  const cap = perReceiver(concurrency);
  const line = perReceiverLine(concurrency);
  let inFlight = 0;
  let claiming = false;
  let missed = false;
  let stopped = false;
  let soon: ReturnType<typeof setTimeout> | null = null;
  const outcomes: Outcome[] = [];
  let flushing: Promise<void> | null = null;
  /** Handed-over deliveries waiting for a slot, each with the time it must start by. */
  let waiting: { row: Claimed; deadline: number }[] = [];
  /** Per webhook: attempts in flight, and rows waiting for a slot. */
  const busy = new Map<string, number>();
  const queued = new Map<string, number>();
  /** Due rows may be waiting in the table: a claim found a full batch, or a wake found no room. */
  let backlog = false;
  /** Deliveries handed over without a row until their outcome is written (handed-over.ts). */
  const open = openDeliveries();
  /** Whether what a killed process had been handed was found again: only then may the mark move. */
  let recovered = false;

  const [flushGap, batchOf] = withoutRows(ctx)
    ? [EMBEDDED_GAP_MS, EMBEDDED_BATCH]
    : [GAP_MS, BATCH];
  // Outcomes are written together, at most every GAP_MS (sooner once a full batch is waiting):
  // under load the sender costs the database a few statements a second, not two per delivery.
  let flushTimer: ReturnType<typeof setTimeout> | null = null;
  let lastFlush = 0;
  /** Stopping: called when the last attempt under way has finished. */
  let idle: (() => void) | null = null;
  /** Stopped and written: an attempt ending later is not (its lease or the recovery resends it). */
  let ended = false;
  function flush() {
    if (ended || flushing || flushTimer || outcomes.length === 0) return;
    const wait = outcomes.length >= batchOf ? 0 : lastFlush + flushGap - Date.now();
    if (wait > 0 && !stopped) {
      flushTimer = setTimeout(() => {
        flushTimer = null;
        flush();
      }, wait);
      return;
    }
    lastFlush = Date.now();
    const batch = outcomes.splice(0);
    const through = batch.some((o) => o.unwritten) ? open.mark() : null;
    // retried, and put back when it still fails: a lost outcome is a second send after the lease
    flushing = retried(() => recordOutcomes(ctx.db, batch, through))
      .then(() => open.written(batch))
      .catch((e) => {
        outcomes.unshift(...batch);
        ctx.log.error("webhook outcomes could not be recorded yet; retrying", e);
      })
      .finally(() => {
        flushing = null;
        flush();
      });
  }

  function attempt(row: Claimed) {
    inFlight++;
    count(busy, row.webhook_id, 1);
    attemptDelivery(ctx, row).then((outcome) => {
      inFlight--;
      count(busy, row.webhook_id, -1);
      // stopping too: the attempt was made, so its outcome is written before the process exits
      outcomes.push(outcome);
      if (!ended) logFailedAttempt(ctx, row, outcome);
      flush();
      if (stopped) {
        if (inFlight === 0) idle?.();
        return;
      }
      // a slot is free: handed-over rows first (their lease is running), then the table's
      if (waiting.length > 0) startWaiting();
      if (backlog) schedule();
    });
  }

  /** Waits for a slot, unless its receiver's line is full. */
  function enqueue(row: Claimed, deadline: number): boolean {
    if ((queued.get(row.webhook_id) ?? 0) >= line) return false;
    count(queued, row.webhook_id, 1);
    // without a row there is no lease: it waits for its slot however long that takes
    waiting.push({ row, deadline: row.unwritten ? Number.POSITIVE_INFINITY : deadline });
    return true;
  }
  /** A delivery handed over without a row that will not be attempted here: written due now. */
  const due = (row: Claimed) => unattempted(row.id, unwrittenRow(row));
  /** Starts waiting rows in their order, skipping those whose receiver has all its slots busy. */
  function startWaiting() {
    const now = Date.now();
    const still: typeof waiting = [];
    for (const w of waiting) {
      const id = w.row.webhook_id;
      if (now > w.deadline) {
        // too late to finish within its lease: a claim takes it once the lease is over
        count(queued, id, -1);
        backlog = true;
      } else if (inFlight < concurrency && (busy.get(id) ?? 0) < cap) {
        count(queued, id, -1);
        attempt(w.row);
      } else still.push(w);
    }
    waiting = still;
  }

  async function claim() {
    // the line is for receivers with every slot busy: it does not hold the others' slots
    const capacity = concurrency - inFlight;
    if (claiming) missed = true;
    if (stopped || claiming) return;
    if (capacity <= 0) {
      backlog = true;
      return;
    }
    claiming = true;
    lastClaim = Date.now();
    // this claim looks at the table: only what it leaves there calls for the next one soon
    backlog = false;
    try {
      // receivers with every slot busy are left out: a hanging one cannot take all the slots
      const full = [...busy].filter(([, n]) => n >= cap).map(([id]) => id);
      const rows = await claimDeliveries(ctx.db, capacity, leaseSeconds(ctx), full, cap);
      const deadline = lastClaim + leaseSeconds(ctx) * 1000 - ctx.config.webhooks.timeoutMs - 1000;
      for (const row of rows) {
        if ((busy.get(row.webhook_id) ?? 0) < cap && inFlight < concurrency) attempt(row);
        // more than its receiver may have in flight: in line, or back to the table after the lease
        else if (!enqueue(row, deadline)) backlog = true;
      }
      // a full batch: more may be waiting
      if (rows.length === capacity) backlog = true;
      if (backlog) schedule();
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
    sweepOrphans(ctx.db)
      .then(() => pruneDeliveries(ctx.db, ctx.config.webhooks.retentionDays))
      // an idle sender's mark moves on too, so a recovery never looks far back
      .then(() =>
        !withoutRows(ctx)
          ? undefined
          : recovered
            ? recordOutcomes(ctx.db, [], open.mark())
            : recover(),
      )
      .catch((e) => {
        if (outageKind(e) === null) ctx.log.error("webhook sweep failed", e);
      });
  }, 60_000);
  sweep.unref();
  const sender: Sender = {
    wake(hooks) {
      if (hooks && hooks.length > 0 && hooks.every((id) => (queued.get(id) ?? 0) >= line)) return;
      schedule();
    },
    room: (hooks) =>
      !stopped &&
      inFlight < concurrency &&
      waiting.length < concurrency &&
      hooks.every((id) => (queued.get(id) ?? 0) < line),
    take(rows, deadline) {
      open.add(rows);
      // one that cannot wait here (its receiver is saturated) is claimed after its lease, or
      // written due when it has no row
      for (const row of rows)
        if (stopped || !enqueue(row, deadline)) {
          if (row.unwritten) outcomes.push(due(row));
          else backlog = true;
        }
      flush();
      if (!stopped) startWaiting();
    },
  };
  // deliveries a killed process had been handed are found again before this one takes any
  function recover() {
    return retried(() => recoverHandedOver(ctx.db)).then(
      (found) => {
        if (found > 0) ctx.log.info(`webhooks: ${found} deliveries found again after a stop`);
        if (stopped) return;
        recovered = true;
        registerSender(ctx, sender);
        if (found > 0) schedule();
      },
      (error) => {
        // until then (the sweep tries again), submits write their deliveries due for a claim
        if (!stopped) ctx.log.error("webhook deliveries could not be recovered", error);
      },
    );
  }
  if (withoutRows(ctx)) void recover();
  else registerSender(ctx, sender);
  return async (waitMs = Number.POSITIVE_INFINITY) => {
    stopped = true;
    clearInterval(timer);
    clearInterval(sweep);
    if (soon) clearTimeout(soon);
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = null;
    // handed-over rows not yet attempted go back to the table when their lease ends; those
    // without a row are written due
    for (const w of waiting) if (w.row.unwritten) outcomes.push(due(w.row));
    waiting = [];
    registerSender(ctx, null);
    // attempts under way finish (each within the receiver timeout, all within waitMs) and their
    // outcomes are written; one still unanswered then had no 2xx: its lease brings it back
    if (inFlight > 0) await within(new Promise<void>((resolve) => (idle = resolve)), waitMs);
    for (let round = 0; round < 3 && (outcomes.length > 0 || flushing); round++) {
      flush();
      await flushing;
    }
    ended = true;
    await flushing;
  };
}
