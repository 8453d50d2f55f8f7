import type { Context } from "hono";
import { boundedFailure } from "../../src/core/bounded-failure.ts";
import { AppError, type ErrorCode, type Failure } from "../../src/core/errors.ts";
import type { Log } from "../context.ts";
import { unavailableFailure } from "../db/outage.ts";

export const STATUS: Record<ErrorCode, 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 500 | 503> =
  {
    invalid_request: 400,
    invalid_param: 400,
    validation_failed: 400,
    unauthorized: 401,
    forbidden: 403,
    access_denied: 403,
    form_closed: 403,
    not_found: 404,
    conflict: 409,
    plan_needs_confirmation: 409,
    form_changed: 409,
    already_answered: 409,
    payload_too_large: 413,
    captcha_failed: 422,
    idempotency_mismatch: 422,
    rate_limited: 429,
    internal_error: 500,
    unavailable: 503,
  };

/** The one mapping from a Failure to an HTTP answer: `{error, code}` (+ details). */
export function failureResponse(given: Failure, headers: Record<string, string> = {}): Response {
  // at most 100 details and 64 KB, whatever made it (SPEC §23)
  const failure = boundedFailure(given);
  const body: Record<string, unknown> = { error: failure.error, code: failure.code };
  if (failure.details) body.details = failure.details;
  if (failure.plan !== undefined) body.details = failure.plan;
  const extra: Record<string, string> = { ...headers };
  if (failure.retryAfter !== undefined) extra["retry-after"] = String(failure.retryAfter);
  // RFC 6750: a 401 names the scheme it wants, so clients (MCP ones included) know to send a key
  if (failure.code === "unauthorized") extra["www-authenticate"] = 'Bearer realm="formdown"';
  return Response.json(body, { status: STATUS[failure.code], headers: extra });
}

export const UNSTORABLE_TEXT_MESSAGE =
  "Text must be well-formed Unicode without NUL characters (U+0000) or lone surrogates.";

/** Postgres's codes for text it cannot store: U+0000, in text or as a JSON escape. */
const UNSTORABLE_TEXT = new Set(["22021", "22P05"]);

/**
 * The failure behind an error that is not a bug of ours, or null for one that is. A NUL
 * character anywhere in the input (a title, an answer, a key name) is refused by the database on
 * every path: it is the client's mistake, answered as such. A database that cannot be reached
 * (down, restarting, too slow to answer) is a 503 `unavailable` with Retry-After, not a 500; the
 * database adapter logs the outage once, so it is not logged per request.
 */
export function clientFailure(error: unknown): Failure | null {
  if (error instanceof AppError) return error.failure;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && UNSTORABLE_TEXT.has(code))
    return { code: "invalid_request", error: UNSTORABLE_TEXT_MESSAGE };
  return unavailableFailure(error);
}

/** Hono's error handler: user failures become their answer; anything else a bare 500. */
export function errorHandler(log: Log) {
  return (error: Error, c: Context): Response => {
    const failure = clientFailure(error);
    if (failure) return failureResponse(failure);
    const requestId = crypto.randomUUID();
    log.error(`request ${requestId} ${c.req.method} ${new URL(c.req.url).pathname} failed`, error, {
      request_id: requestId,
    });
    return failureResponse(
      { code: "internal_error", error: `Something went wrong on our side (request ${requestId}).` },
      { "x-request-id": requestId },
    );
  };
}
