// How a submit meets this process's webhook sender (sender.ts): whether the sender has room
// for the deliveries a submit is about to write (then the statement writes them leased to it, or
// on PGlite writes none), handing those over once written, or waking it for ones written due. The
// sender registers here while it runs; with none (serverless, tests) deliveries are written due
// for a claim.

import { Buffer } from "node:buffer";
import type { AppContext } from "../context.ts";
import { outageKind } from "../db/outage.ts";
import { retried } from "../db/retry.ts";
import { HANDED_OVER } from "../services/submit-sql.ts";
import { unattempted } from "./handed-over.ts";
import { type Claimed, cachedHooks, type HookInfo, hooks, recordOutcomes } from "./queue.ts";

/** The shortest time between two claims, and between two writes of outcomes. */
export const GAP_MS = 50;

/** A delivery's lease: its attempt's deadline and some slack. */
export const leaseSeconds = (ctx: AppContext) =>
  Math.ceil(ctx.config.webhooks.timeoutMs / 1000) + 5;

export interface Sender {
  wake(hooks?: string[]): void;
  /** Deliveries to these webhooks may be taken now without going over the limits. */
  room(hooks: string[]): boolean;
  take(rows: Claimed[], deadline: number): void;
}

const senders = new WeakMap<AppContext, Sender>();

/** The sender of this process starts (a Sender) or stops (null). */
export function registerSender(ctx: AppContext, sender: Sender | null): void {
  if (sender) senders.set(ctx, sender);
  else senders.delete(ctx);
}

/**
 * Tells this process's sender that a delivery is due now (a submit just wrote one). With the
 * webhooks it is for: not when each of them is a receiver with every slot busy and a full line
 * (a claim leaves those out, so it would find nothing; under load from a hanging receiver's form
 * it would run for nothing every GAP_MS).
 */
export function wakeWebhookSender(ctx: AppContext, hooks?: string[]): void {
  senders.get(ctx)?.wake(hooks);
}

/**
 * The lease, in seconds, a submit writes its deliveries to `hooks` with when this process's
 * sender will take them from it (handOver); null — write them due, to be claimed — when no sender
 * runs here (serverless, tests), all its slots are busy, or one of these receivers already has
 * all it may have in flight and waiting (a hanging receiver: those wait in the table, and the
 * submit does no more than write them). On PGlite, HANDED_OVER instead of a lease: no row at all.
 */
export function handoffLease(ctx: AppContext, hooks: string[]): number | typeof HANDED_OVER | null {
  const sender = senders.get(ctx);
  if (!sender?.room(hooks)) return null;
  return withoutRows(ctx) ? HANDED_OVER : leaseSeconds(ctx);
}

/**
 * Whether this process's submits hand their deliveries over without writing a row: on PGlite,
 * whose writes cost this process's own CPU, and which no other process shares (migration
 * …000200_webhook_handed_over; the sender records them, handed-over.ts).
 */
export const withoutRows = (ctx: AppContext) => ctx.db.kind === "pglite";

/** What a submit knows of its response, enough to build the event without reading it back. */
export interface SubmittedResponse {
  id: string;
  payload: Record<string, unknown>;
  score: unknown;
  commit_sha: string | null;
  /** What it recorded beside its payload (SPEC §24); null on a form without logic. */
  ending: string | null;
  variables: Record<string, unknown> | null;
}

/**
 * Gives this process's sender the deliveries a submit wrote leased (handoffLease). `sentAt` is
 * when the statement was sent: the lease runs from the statement's own now(), later than that,
 * so an attempt started before `sentAt + lease - timeout` ends before any other sender may take
 * the row. One that cannot start by then is dropped here and claimed from the table later.
 * Deliveries without a row (withoutRows) have no lease: one no sender here can take is written
 * due; the promise, when there is one, settles once the webhooks were read and that is done.
 */
export function handOver(
  ctx: AppContext,
  deliveries: { id: string; webhook_id: string; created_at: string }[],
  response: SubmittedResponse,
  sentAt: number,
): Promise<unknown> | undefined {
  const sender = senders.get(ctx);
  if (deliveries.length === 0) return;
  const unwritten = withoutRows(ctx);
  // written due now, for a claim: deliveries without a row that no sender here will attempt
  const writeDue = () =>
    retried(() =>
      recordOutcomes(
        ctx.db,
        deliveries.map((d) =>
          unattempted(d.id, {
            webhook_id: d.webhook_id,
            response_id: response.id,
            created_at: d.created_at,
          }),
        ),
      ),
    );
  // the sender stopped while the submit was being written
  if (!sender) return unwritten ? writeDue() : undefined;
  const deadline = sentAt + leaseSeconds(ctx) * 1000 - ctx.config.webhooks.timeoutMs - 1000;
  // the stored payload and variables are jsonb: their keys come back in jsonb's order, so the body
  // of this first attempt is byte for byte the body of any retry built from the table
  const payload = jsonbOrder(response.payload) as Record<string, unknown>;
  const score = jsonbOrder(response.score);
  const variables = jsonbOrder(response.variables) as Record<string, unknown> | null;
  const take = (info: Map<string, HookInfo>) => {
    const rows: Claimed[] = [];
    for (const d of deliveries) {
      const hook = info.get(d.webhook_id);
      // its webhook is gone: left to sweepOrphans, as a claim would
      if (!hook) continue;
      rows.push({
        ...(unwritten ? { unwritten: true } : {}),
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
        ending: response.ending,
        variables,
      });
    }
    sender.take(rows, deadline);
  };
  const ids = deliveries.map((d) => d.webhook_id);
  // the webhooks are almost always cached: then nothing waits for a promise
  const cached = cachedHooks(ctx.db, ids);
  if (cached) {
    take(cached);
    return;
  }
  return hooks(ctx.db, ids).then(take, (error) => {
    if (outageKind(error) === null) ctx.log.error("webhook handover failed", error);
    // the lease brings rows back to a claim
    if (unwritten)
      return writeDue().catch((e) => ctx.log.error("webhook deliveries could not be written", e));
  });
}

/** A JSON value with its object keys in jsonb's order: shorter keys first, then by bytes. */
function jsonbOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(jsonbOrder);
  if (value === null || typeof value !== "object") return value;
  const keys = Object.keys(value).sort(jsonbKeyOrder);
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = jsonbOrder((value as Record<string, unknown>)[k]);
  return out;
}

/** Only characters below U+0080, where a UTF-16 code unit is the UTF-8 byte. */
const ascii = (s: string) => {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) > 0x7f) return false;
  return true;
};

function jsonbKeyOrder(a: string, b: string): number {
  // ASCII keys (nearly all): a character is a byte, so lengths and code units compare as bytes
  if (ascii(a) && ascii(b))
    return a.length !== b.length ? a.length - b.length : a < b ? -1 : a > b ? 1 : 0;
  const la = Buffer.byteLength(a);
  const lb = Buffer.byteLength(b);
  return la !== lb ? la - lb : Buffer.compare(Buffer.from(a), Buffer.from(b));
}
