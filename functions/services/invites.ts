// Personal links (SPEC §25): single-use invites of a form, minted by its owner (REST, MCP, CLI),
// emailed through the outbox when they name an address, listed with their state and revocable.
// The submit spends one (services/invite-check.ts, submit-sql.ts).
import { raise } from "../../src/core/errors.ts";
import type { AppContext } from "../context.ts";
import { randomToken } from "../crypto.ts";
import type { Account } from "./accounts.ts";
import { type FormHead, ownedFormHead, publicUrl } from "./form-view.ts";

/** At most this many invites in one request. */
export const MAX_INVITES = 1000;
/**
 * The most invites one form holds. The list answers them all: 200,000 (two hundred requests of a
 * `write` key) were a 33 MB answer that held the event loop 4 s and took 660 MB a listing.
 */
export const MAX_FORM_INVITES = 10_000;
/** The last instant a timestamptz holds. */
const LAST_INSTANT = Date.parse("9999-12-31T23:59:59.999Z");
const EMAIL = /^[^\s@<>,;"]+@[^\s@<>,;"]+\.[^\s@<>,;"]+$/;
/**
 * An address: at most 254 characters (RFC 5321), measured before EMAIL, whose backtracking is
 * quadratic in a long run of dots (one of 60,000 characters held the event loop 4 s).
 */
const isEmail = (e: unknown) => typeof e === "string" && e.length <= 254 && EMAIL.test(e);

export type InviteState = "sent" | "opened" | "answered" | "revoked" | "expired";

interface InviteRow {
  token: string;
  email: string | null;
  expires_at: string | null;
  created_at: string;
  opened_at: string | null;
  answered_at: string | null;
  revoked_at: string | null;
  emailed: "pending" | "sent" | "kept" | "failed" | null;
}

const bad = (field: string, message: string) =>
  raise("validation_failed", `${field} ${message}.`, { details: [{ field, message }] });

function parseInput(input: unknown): { emails: string[]; count: number; expiresAt: string | null } {
  if (typeof input !== "object" || input === null || Array.isArray(input))
    return raise("invalid_request", "Send a JSON object: {emails?, count?, expires_at?}.");
  const body = input as Record<string, unknown>;
  const emails = body.emails ?? [];
  if (!Array.isArray(emails) || !emails.every(isEmail))
    bad("emails", "must be a list of email addresses");
  const count = body.count ?? 0;
  if (typeof count !== "number" || !Number.isInteger(count) || count < 0)
    bad("count", "must be a whole number of links without an address");
  const unique = [...new Set((emails as string[]).map((e) => e.trim().toLowerCase()))];
  const total = unique.length + (count as number);
  if (total === 0) bad("count", "or emails must ask for at least one invite");
  if (total > MAX_INVITES) bad("count", `and emails ask for more than ${MAX_INVITES} invites`);
  let expiresAt: string | null = null;
  if (body.expires_at !== undefined && body.expires_at !== null) {
    const at = typeof body.expires_at === "string" ? Date.parse(body.expires_at) : Number.NaN;
    if (Number.isNaN(at)) bad("expires_at", "must be an ISO timestamp");
    if (at <= Date.now()) bad("expires_at", "must be in the future");
    // the database holds years up to 9999 (year 10000 was a 500 from the statement)
    if (at > LAST_INSTANT) bad("expires_at", "must be before the year 10000");
    expiresAt = new Date(at).toISOString();
  }
  return { emails: unique, count: count as number, expiresAt };
}

export const inviteUrl = (
  ctx: AppContext,
  row: Pick<FormHead, "handler" | "slug">,
  token: string,
) => `${publicUrl(ctx, row)}?invite=${token}`;

/**
 * Mints the invites in one statement: one per address (its email written to the outbox in the
 * same statement, so a minted invite with an address is always sent) and `count` more without.
 */
export async function createInvites(
  ctx: AppContext,
  account: Account,
  slug: string,
  input: unknown,
) {
  const form = await ownedFormHead(ctx, account, slug);
  const { emails, count, expiresAt } = parseInput(input);
  const addressed = emails.map((email) => ({ token: randomToken(18), email }));
  const bare = Array.from({ length: count }, () => ({ token: randomToken(18), email: null }));
  const all = [...addressed, ...bare];
  // the count and the insert in one statement, as webhooks do
  const [made] = await ctx.db.query<{ n: number }>(
    `with i as (
       insert into invites (token, form_id, email, expires_at)
       select t, $1, e, $4::timestamptz from unnest($2::text[], $3::text[]) as x(t, e)
        where (select count(*) from invites where form_id = $1) + cardinality($2::text[]) <= $5
       returning token, email),
     o as (insert into outbox (form_id, kind, recipients, invite)
       select $1, 'invite', jsonb_build_array(i.email), i.token from i where i.email is not null)
     select count(*)::int as n from i`,
    [form.id, all.map((i) => i.token), all.map((i) => i.email), expiresAt, MAX_FORM_INVITES],
  );
  if (!made?.n)
    raise(
      "conflict",
      `A form holds at most ${MAX_FORM_INVITES} invites (revoked and answered ones count).`,
    );
  return {
    invites: all.map((i) => ({
      token: i.token,
      url: inviteUrl(ctx, form, i.token),
      ...(i.email ? { email: i.email } : {}),
    })),
  };
}

const stateOf = (r: InviteRow): InviteState =>
  r.answered_at
    ? "answered"
    : r.revoked_at
      ? "revoked"
      : r.expires_at && Date.parse(r.expires_at) <= Date.now()
        ? "expired"
        : r.opened_at
          ? "opened"
          : "sent";

/** The form's invites, oldest first, each with its state and its email's delivery. */
export async function listInvites(ctx: AppContext, account: Account, slug: string) {
  const form = await ownedFormHead(ctx, account, slug);
  const rows = await ctx.db.query<InviteRow>(
    `select i.token, i.email, i.expires_at, i.created_at, i.opened_at, i.answered_at, i.revoked_at,
            o.status as emailed
       from invites i left join outbox o on o.invite = i.token and o.kind = 'invite'
      where i.form_id = $1 order by i.created_at, i.token`,
    [form.id],
  );
  return {
    invites: rows.map((r) => ({
      token: r.token,
      url: inviteUrl(ctx, form, r.token),
      ...(r.email ? { email: r.email } : {}),
      state: stateOf(r),
      ...(r.emailed ? { emailed: r.emailed } : {}),
      ...(r.expires_at ? { expires_at: r.expires_at } : {}),
      created_at: r.created_at,
      ...(r.opened_at ? { opened_at: r.opened_at } : {}),
      ...(r.answered_at ? { answered_at: r.answered_at } : {}),
    })),
  };
}

/** Revokes a link: refused from now on, its unsent email dropped. */
export async function revokeInvite(ctx: AppContext, account: Account, slug: string, token: string) {
  const form = await ownedFormHead(ctx, account, slug);
  const [row] = await ctx.db.query<{ token: string }>(
    `with r as (
       update invites set revoked_at = coalesce(revoked_at, now())
        where form_id = $1 and token = $2 returning token),
     o as (delete from outbox where invite = $2 and kind = 'invite' and status = 'pending' and exists (select 1 from r))
     select token from r`,
    [form.id, token],
  );
  if (!row) raise("not_found", "No such invite.");
  return { revoked: true, token };
}

/** The page was opened through the link (the page's view beacon carries it). */
export async function markOpened(ctx: AppContext, formId: string, token: unknown) {
  if (typeof token !== "string" || token.length > 100) return;
  await ctx.db.query(
    "update invites set opened_at = now() where form_id = $1 and token = $2 and opened_at is null",
    [formId, token],
  );
}
