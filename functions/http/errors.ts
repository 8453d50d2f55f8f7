import type { Context } from "hono";
import { AppError, type ErrorCode, type Failure } from "../../src/core/errors.ts";
import type { Log } from "../context.ts";

export const STATUS: Record<ErrorCode, 400 | 401 | 403 | 404 | 409 | 413 | 422 | 429 | 500> = {
  invalid_request: 400,
  invalid_param: 400,
  validation_failed: 400,
  unauthorized: 401,
  forbidden: 403,
  access_denied: 403,
  form_closed: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  captcha_failed: 422,
  rate_limited: 429,
  internal_error: 500,
};

/** The one mapping from a Failure to an HTTP answer: `{error, code}` (+ details). */
export function failureResponse(failure: Failure, headers: Record<string, string> = {}): Response {
  const body: Record<string, unknown> = { error: failure.error, code: failure.code };
  if (failure.details) body.details = failure.details;
  const extra: Record<string, string> = { ...headers };
  if (failure.retryAfter !== undefined) extra["retry-after"] = String(failure.retryAfter);
  return Response.json(body, { status: STATUS[failure.code], headers: extra });
}

/** Hono's error handler: user failures become their answer; anything else a bare 500. */
export function errorHandler(log: Log) {
  return (error: Error, c: Context): Response => {
    if (error instanceof AppError) return failureResponse(error.failure);
    const requestId = crypto.randomUUID();
    log.error(`request ${requestId} ${c.req.method} ${new URL(c.req.url).pathname} failed`, error);
    return failureResponse(
      { code: "internal_error", error: `Something went wrong on our side (request ${requestId}).` },
      { "x-request-id": requestId },
    );
  };
}
