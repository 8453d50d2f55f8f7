// One attempt at one delivery: compose the body, sign it, POST it, and say what comes next.
import type { KeyObject } from "node:crypto";
import type { AppContext } from "../context.ts";
import { unwrittenRow } from "./handed-over.ts";
import { eventBody } from "./payload.ts";
import { postWebhook } from "./post.ts";
import { afterFailure, type Claimed, type Outcome } from "./queue.ts";
import { boxFor } from "./secrets.ts";
import { signedHeaders, signingKeyObject } from "./signing.ts";

/** HMAC keys by sealed secret: decrypting once per webhook, not per delivery. */
const keys = new Map<string, Promise<KeyObject>>();
/** The same keys once decrypted, for an attempt that need not wait for a promise. */
const opened = new Map<string, KeyObject>();

export async function keyFor(ctx: AppContext, sealed: string): Promise<KeyObject> {
  let key = keys.get(sealed);
  if (!key) {
    if (keys.size >= 1000) {
      keys.clear();
      opened.clear();
    }
    key = boxFor(ctx).then((box) => box.open(sealed).then(signingKeyObject));
    key.then(
      (k) => opened.set(sealed, k),
      () => keys.delete(sealed),
    );
    keys.set(sealed, key);
  }
  return key;
}

/** Sends one claimed delivery and returns its outcome (never throws). */
export async function attemptDelivery(ctx: AppContext, row: Claimed): Promise<Outcome> {
  const outcome = await attempt(ctx, row);
  return row.unwritten ? { ...outcome, unwritten: unwrittenRow(row) } : outcome;
}

/**
 * One JSON line per failed attempt (SPEC §22), said by whoever records its outcome (the sender,
 * the drain; not a sender already stopped, whose attempt is sent again): the delivery's id (the
 * `webhook-id` the receiver got, and the id in the delivery log), what the receiver answered, and
 * what comes next. The receiver is named by its origin alone: a path may hold a secret (a Slack
 * hook's).
 */
export function logFailedAttempt(ctx: AppContext, row: Claimed, outcome: Outcome): void {
  if (outcome.status === "delivered") return;
  let receiver = "";
  try {
    receiver = new URL(row.url).origin;
  } catch {}
  ctx.log.error(`webhook delivery ${row.id} failed`, undefined, {
    delivery_id: row.id,
    webhook_id: row.webhook_id,
    form: row.slug,
    event: row.event,
    response_id: row.response_id,
    receiver,
    attempt: row.attempts,
    http_status: outcome.httpStatus,
    error: outcome.error,
    next: outcome.status === "pending" ? `retry in ${outcome.retryIn} s` : "none: failed",
  });
}

async function attempt(ctx: AppContext, row: Claimed): Promise<Outcome> {
  const { backoff, timeoutMs, allowPrivate } = ctx.config.webhooks;
  const body = eventBody(row);
  if (body === null)
    return {
      id: row.id,
      status: "failed",
      httpStatus: null,
      error: "the response was deleted",
      retryIn: 0,
    };
  try {
    const key = opened.get(row.secret) ?? (await keyFor(ctx, row.secret));
    const headers = signedHeaders(key, row.id, body);
    const result = await postWebhook(row.url, headers, body, { timeoutMs, allowPrivate });
    if (result.error === null)
      return {
        id: row.id,
        status: "delivered",
        httpStatus: result.status,
        error: null,
        retryIn: 0,
      };
    return {
      id: row.id,
      httpStatus: result.status,
      error: result.error,
      ...afterFailure(row.attempts, backoff),
    };
  } catch (error) {
    const message = String((error as Error).message ?? error).slice(0, 300);
    return { id: row.id, httpStatus: null, error: message, ...afterFailure(row.attempts, backoff) };
  }
}
