/**
 * The failures a user can cause, as values. Every surface maps them once: HTTP to
 * `{error, code}` plus a status, MCP to `isError: true`, the CLI to a message and exit code.
 */
export type ErrorCode =
  | "invalid_request"
  | "invalid_param"
  | "validation_failed"
  | "unauthorized"
  | "forbidden"
  | "not_found"
  | "conflict"
  | "captcha_failed"
  | "idempotency_mismatch"
  | "access_denied"
  | "form_closed"
  | "payload_too_large"
  | "rate_limited"
  | "unavailable"
  | "plan_needs_confirmation"
  | "form_changed"
  | "already_answered"
  | "internal_error";

/** One problem with one field (or, for a form definition, one path such as `fields[2].id`). */
export interface FieldIssue {
  field: string;
  message: string;
}

export interface Failure {
  code: ErrorCode;
  /** A human sentence; never a stack trace or SQL. */
  error: string;
  details?: FieldIssue[];
  /** The deploy plan (SPEC §16), sent as `details` in place of field issues. */
  plan?: unknown;
  /** Seconds, for `rate_limited` and `unavailable` (the Retry-After header). */
  retryAfter?: number;
}

export type Result<T> = { ok: true; value: T } | { ok: false; failure: Failure };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });

export const fail = (
  code: ErrorCode,
  error: string,
  extra: Omit<Failure, "code" | "error"> = {},
): { ok: false; failure: Failure } => ({ ok: false, failure: { code, error, ...extra } });

/** Carries a Failure through layers that throw; the surface's one mapper unwraps it. */
export class AppError extends Error {
  readonly failure: Failure;
  constructor(failure: Failure) {
    super(failure.error);
    this.name = "AppError";
    this.failure = failure;
  }
}

/** Throws the failure of a failed Result, or returns its value. */
export function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw new AppError(result.failure);
  return result.value;
}

export const raise = (
  code: ErrorCode,
  error: string,
  extra: Omit<Failure, "code" | "error"> = {},
): never => {
  throw new AppError({ code, error, ...extra });
};

export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}
