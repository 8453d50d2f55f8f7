import { raise } from "../../src/core/errors.ts";

/** Whether a create body asks for a draft; any status other than draft or live is refused. */
export function draftWanted(input: unknown): boolean {
  const status = (input as { status?: unknown } | null)?.status;
  if (status === undefined || status === "live") return false;
  if (status === "draft") return true;
  return raise("validation_failed", 'status must be "draft" or "live".', {
    details: [{ field: "status", message: 'must be "draft" or "live"' }],
  });
}

/** The create body without `status`, which is not part of the form's definition. */
export function withoutStatus(input: unknown): unknown {
  if (!input || typeof input !== "object" || !("status" in input)) return input;
  const { status: _status, ...rest } = input as Record<string, unknown>;
  return rest;
}
