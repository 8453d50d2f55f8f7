import { raise } from "../../src/core/errors.ts";
import type { AppContext } from "../context.ts";
import { constantTimeEqual, verifyPassword } from "../crypto.ts";
import { clientBucket } from "../http/client-address.ts";
import type { FormRow } from "./form-view.ts";
import { refuseOver } from "./rate-limit.ts";

export type AccessRow = Pick<FormRow, "access_mode" | "access_token" | "access_password_hash">;

/** A form's failures a minute, in FORMDOWN_RATE_ACCESS, past which each client has one. */
const FORM_FACTOR = 10;

/**
 * Whether a request of the live form must carry an anti-bot token: when the form asks for one,
 * and for every password attempt whatever it asks (SPEC §23 "Access attempts cost an anti-bot
 * token"), so each guess costs a proof of work or a Turnstile solve. A link's token is 24 random
 * characters: guessing it is hopeless, and its page must open without a script.
 */
export const needsAntiBot = (row: Pick<FormRow, "access_mode" | "definition">) =>
  row.definition.humanness || row.access_mode === "password";

/** Raises 422 `captcha_failed` unless `token` passes the deployment's anti-bot check. */
export async function checkAntiBot(
  ctx: AppContext,
  token: unknown,
  ip: string | undefined,
): Promise<void> {
  if (typeof token !== "string" || token.length > 10_000 || !(await ctx.antibot.verify(token, ip)))
    raise("captcha_failed", "The anti-bot check failed; reload the page and try again.");
}

/**
 * Checks a link token or password (SPEC §4) for a submit, an upload, `/public` or the page.
 * Callers check the anti-bot token first (needsAntiBot, checkAntiBot). Failed attempts are
 * counted per client (its address, an IPv6 one by /64) and per form. A client past
 * FORMDOWN_RATE_ACCESS failures a minute on the form is answered 429 for the rest of the minute —
 * the right password too, or the refusal would itself be the oracle. Past ten times that on the
 * form (guesses from many addresses, each having paid its anti-bot token), every client has one
 * failure a minute: one that has failed waits, one that has not — a respondent who knows the
 * password — still gets in, so a stranger cannot lock the form's respondents out. The buckets are
 * named by the slug and address, so they hold across instances like every other limit.
 */
export async function checkAccess(
  ctx: AppContext,
  slug: string,
  row: AccessRow,
  access: unknown,
  ip: string | undefined,
): Promise<void> {
  if (row.access_mode !== "link" && row.access_mode !== "password") return;
  const limit = ctx.config.rateAccess;
  const formBucket = `access-failed:${slug}`;
  const clientBucketName = `access-failed:${slug}:${clientBucket(ip)}`;
  const crowded = ctx.limiter.over(formBucket, limit * FORM_FACTOR) > 0;
  const clientLimit = crowded ? Math.min(1, limit) : limit;
  refuseOver(ctx, clientBucketName, clientLimit);
  const given = typeof access === "string" && access.length <= 1000 ? access : null;
  const right =
    row.access_mode === "link"
      ? given !== null && !!row.access_token && constantTimeEqual(given, row.access_token)
      : given !== null &&
        !!row.access_password_hash &&
        (await verifyPassword(given, row.access_password_hash));
  if (right) return;
  ctx.limiter.take(clientBucketName, clientLimit);
  ctx.limiter.take(formBucket, limit * FORM_FACTOR);
  raise(
    "access_denied",
    row.access_mode === "link"
      ? "This form needs the link it was shared with."
      : "This form needs the right password.",
  );
}
