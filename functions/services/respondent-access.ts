import { raise } from "../../src/core/errors.ts";
import type { AppContext } from "../context.ts";
import { constantTimeEqual, verifyPassword } from "../crypto.ts";
import type { FormRow } from "./form-view.ts";
import { refuseOver } from "./rate-limit.ts";

export type AccessRow = Pick<FormRow, "access_mode" | "access_token" | "access_password_hash">;

/**
 * Checks a link token or password (SPEC §4) for a submit or an upload. Callers check the anti-bot
 * token first (SPEC §19 "Secrets before oracles"), so each guess costs a proof of work or a
 * Turnstile solve. Failed attempts are counted per form, whatever the address, and past
 * FORMDOWN_RATE_ACCESS a minute every attempt on the form answers 429 — the right password too,
 * or the refusal would itself be the oracle. The bucket is named by the slug, so it holds across
 * instances like every other limit.
 */
export async function checkAccess(
  ctx: AppContext,
  slug: string,
  row: AccessRow,
  access: unknown,
): Promise<void> {
  if (row.access_mode !== "link" && row.access_mode !== "password") return;
  const bucket = `access-failed:${slug}`;
  const limit = ctx.config.rateAccess;
  refuseOver(ctx, bucket, limit);
  const given = typeof access === "string" && access.length <= 1000 ? access : null;
  const right =
    row.access_mode === "link"
      ? given !== null && !!row.access_token && constantTimeEqual(given, row.access_token)
      : given !== null &&
        !!row.access_password_hash &&
        (await verifyPassword(given, row.access_password_hash));
  if (right) return;
  ctx.limiter.take(bucket, limit);
  raise(
    "access_denied",
    row.access_mode === "link"
      ? "This form needs the link it was shared with."
      : "This form needs the right password.",
  );
}
