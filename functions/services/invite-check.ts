// A submit's personal link (SPEC §25): checked before the answers, spent by the submit statement.
import { raise } from "../../src/core/errors.ts";
import type { AppContext } from "../context.ts";

export interface InviteUse {
  token: string;
  email: string | null;
}

interface Row {
  email: string | null;
  expires_at: string | null;
  answered_at: string | null;
  revoked_at: string | null;
}

/**
 * The invite a submit carries, checked: none is needed unless the form's access is `invite`
 * (an invite sent to another form's submit is still spent there). Unknown, revoked or expired:
 * 403 `access_denied`; spent: 409 `already_answered`. The statement re-checks it and the unique
 * index on (form, invite) keeps two racing submits to one response.
 */
export async function checkInvite(
  ctx: AppContext,
  form: { id: string; access_mode: string },
  given: unknown,
): Promise<InviteUse | null> {
  if (given === undefined || given === null || given === "") {
    if (form.access_mode !== "invite") return null;
    return raise("access_denied", "This form is answered through personal invite links only.");
  }
  if (typeof given !== "string" || given.length > 100)
    return raise("access_denied", "This invite link is not valid.");
  const [row] = await ctx.db.query<Row>(
    "select email, expires_at, answered_at, revoked_at from invites where form_id = $1 and token = $2",
    [form.id, given],
  );
  inviteRefusal(row);
  return { token: given, email: row!.email };
}

/** Raises the refusal an invite's row calls for, if any. */
export function inviteRefusal(row: Row | undefined): void {
  if (!row) raise("access_denied", "This invite link is not valid.");
  if (row!.answered_at) raise("already_answered", "This invite link has already been answered.");
  if (row!.revoked_at) raise("access_denied", "This invite link was revoked.");
  if (row!.expires_at && Date.parse(row!.expires_at) <= Date.now())
    raise("access_denied", "This invite link has expired.");
}

/** After a refused or raced statement: the refusal the invite's state now calls for. */
export async function explainInvite(ctx: AppContext, formId: string, token: string) {
  const [row] = await ctx.db.query<Row>(
    "select email, expires_at, answered_at, revoked_at from invites where form_id = $1 and token = $2",
    [formId, token],
  );
  inviteRefusal(row);
}
