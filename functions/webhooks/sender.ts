// Drains webhook deliveries, apart from the email outbox: its own loop and its own limit on
// attempts in flight, so a slow or hanging receiver holds only its own slots — never a submit,
// never an email. Rows are claimed in batches and outcomes written in batches (queue.ts).
// Deliveries this process's own submits write come straight to it instead (handOver): the
// submit statement writes them already leased to this sender, so they cost no claim query.

import { Buffer } from "node:buffer";
import type { AppContext } from "../context.ts";
import { outageKind } from "../db/outage.ts";
import { attemptDelivery } from "./deliver.ts";
import {
  type Claimed,
  claimDeliveries,
  hooks,
  type Outcome,
  recordOutcomes,
  sweepOrphans,
} from "./queue.ts";

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

interface Sender {
  wake(): void;
  /** Attempts may start now without going over the limit. */
  room(): boolean;
  take(rows: Claimed[], deadline: number): void;
}

const senders = new WeakMap<AppContext, Sender>();

/** Tells this process's sender that a delivery is due now (a submit just wrote one). */
export function wakeWebhookSender(ctx: AppContext): void {
  senders.get(ctx)?.wake();
}

/**
 * The lease, in seconds, a submit writes its deliveries with when this process's sender will
 * take them from it (handOver); null — write them due, to be claimed — when no sender runs here
 * (serverless, tests) or all its slots are busy (a hanging receiver: those wait in the table).
 */
export function handoffLease(ctx: AppContext): number | null {
  const sender = senders.get(ctx);
  return sender?.room() ? leaseSeconds(ctx) : null;
}

/** What a submit knows of its response, enough to build the event without reading it back. */
export interface SubmittedResponse {
  id: string;
  payload: Record<string, unknown>;
  score: unknown;
  commit_sha: string | null;
}

/**
 * Gives this process's sender the deliveries a submit wrote leased (handoffLease). `sentAt` is
 * when the statement was sent: the lease runs from the statement's own now(), later than that,
 * so an attempt started before `sentAt + lease - timeout` ends before any other sender may take
 * the row. One that cannot start by then is dropped here and claimed from the table later.
 */
export function handOver(
  ctx: AppContext,
  deliveries: { id: string; webhook_id: string; created_at: string }[],
  response: SubmittedResponse,
  sentAt: number,
): void {
  const sender = senders.get(ctx);
  if (!sender || deliveries.length === 0) return;
  const deadline = sentAt + leaseSeconds(ctx) * 1000 - ctx.config.webhooks.timeoutMs - 1000;
  // the stored payload is jsonb: its keys come back in jsonb's order, so the body of this first
  // attempt is byte for byte the body of any retry built from the table
  const payload = jsonbOrder(response.payload) as Record<string, unknown>;
  const score = jsonbOrder(response.score);
  hooks(
    ctx.db,
    deliveries.map((d) => d.webhook_id),
  ).then(
    (info) => {
      const rows: Claimed[] = [];
      for (const d of deliveries) {
        const hook = info.get(d.webhook_id);
        // its webhook is gone: left to sweepOrphans, as a claim would
        if (!hook) continue;
        rows.push({
          id: d.id,
          webhook_id: d.webhook_id,
          event: "response.created",
          response_id: response.id,
          attempts: 1,
          created_at: d.created_at,
          ...hook,
          // the response and its delivery share the statement, so their now() is the same
          submitted_at: d.created_at,
          payload,
          score,
          commit_sha: response.commit_sha,
        });
      }
      sender.take(rows, deadline);
    },
    // the lease brings them back to a claim
    (error) => {
      if (outageKind(error) === null) ctx.log.error("webhook handover failed", error);
    },
  );
}

/** A JSON value with its object keys in jsonb's order: shorter keys first, then by bytes. */
function jsonbOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(jsonbOrder);
  if (value === null || typeof value !== "object") return value;
  const keys = Object.keys(value).sort((a, b) => {
    const la = Buffer.byteLength(a);
    const lb = Buffer.byteLength(b);
    return la !== lb ? la - lb : Buffer.compare(Buffer.from(a), Buffer.from(b));
  });
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = jsonbOrder((value as Record<string, unknown>)[k]);
  return out;
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
  /** Handed-over deliveries waiting for a slot, each with the time it must start by. */
  const waiting: { row: Claimed; deadline: number }[] = [];
  /** Due rows may be waiting in the table: a claim found a full batch, or a wake found no room. */
  let backlog = false;

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

  function attempt(row: Claimed) {
    inFlight++;
    attemptDelivery(ctx, row).then((outcome) => {
      inFlight--;
      // stopping: the database is closing; the lease brings the row back to the next sender
      if (stopped) return;
      outcomes.push(outcome);
      flush();
      // a slot is free: handed-over rows first (their lease is running), then the table's
      if (waiting.length > 0) startWaiting();
      else if (backlog) schedule();
    });
  }

  function startWaiting() {
    const now = Date.now();
    while (waiting.length > 0 && inFlight < ctx.config.webhooks.concurrency) {
      const { row, deadline } = waiting.shift()!;
      // too late to finish within its lease: a claim takes it once the lease is over
      if (now > deadline) backlog = true;
      else attempt(row);
    }
  }

  async function claim() {
    const capacity = ctx.config.webhooks.concurrency - inFlight - waiting.length;
    if (claiming) missed = true;
    if (stopped || claiming) return;
    if (capacity <= 0) {
      backlog = true;
      return;
    }
    claiming = true;
    lastClaim = Date.now();
    try {
      const rows = await claimDeliveries(ctx.db, capacity, leaseSeconds(ctx));
      for (const row of rows) attempt(row);
      // a full batch: more may be waiting
      backlog = rows.length === capacity;
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
    sweepOrphans(ctx.db).catch((e) => ctx.log.error("webhook sweep failed", e));
  }, 60_000);
  sweep.unref();
  senders.set(ctx, {
    wake: schedule,
    room: () => !stopped && inFlight + waiting.length < ctx.config.webhooks.concurrency,
    take(rows, deadline) {
      if (stopped) return;
      for (const row of rows) waiting.push({ row, deadline });
      startWaiting();
    },
  });
  return async () => {
    stopped = true;
    clearInterval(timer);
    clearInterval(sweep);
    if (soon) clearTimeout(soon);
    if (flushTimer) clearTimeout(flushTimer);
    flushTimer = null;
    waiting.length = 0;
    senders.delete(ctx);
    flush();
    await flushing;
  };
}
