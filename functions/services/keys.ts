import { raise } from "../../src/core/errors.ts";
import type { AppContext } from "../context.ts";
import { allows, levelOf, ROLE_SCOPE, type Role, SCOPES, type Scope } from "../scopes.ts";
import { type Account, issueKey } from "./accounts.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Live (unrevoked) keys one account may hold: each key has its own API rate limit (SPEC §19). */
export const MAX_LIVE_KEYS = 20;
/** Keys one account may create in an hour, revoked ones included. */
export const KEYS_PER_HOUR = 20;

/**
 * Refuses a new key past either bound, so creating keys cannot multiply the per-key API limit.
 * One read of the account's few keys (indexed by account); two concurrent creations may both
 * pass at the bound, which lets one key more through, never many.
 */
export async function checkKeyBounds(ctx: AppContext, account: Account): Promise<void> {
  const [row] = await ctx.db.query<{ live: number; recent: number; wait: number | null }>(
    `select count(*) filter (where revoked_at is null)::int as live,
            count(*) filter (where created_at > now() - interval '1 hour')::int as recent,
            ceil(extract(epoch from min(created_at) filter (where created_at > now() - interval '1 hour')
              + interval '1 hour' - now()))::int as wait
       from api_keys where account_id = $1`,
    [account.id],
  );
  if (row!.live >= MAX_LIVE_KEYS)
    raise(
      "conflict",
      `An account holds at most ${MAX_LIVE_KEYS} live API keys; revoke one (DELETE /api/keys/{id}) before creating another.`,
    );
  if (row!.recent >= KEYS_PER_HOUR)
    raise(
      "rate_limited",
      `An account creates at most ${KEYS_PER_HOUR} API keys an hour; try again later.`,
      { retryAfter: Math.max(1, row!.wait ?? 3600) },
    );
}

const SLUG = /^[a-z0-9][a-z0-9-]{0,99}$/;

const invalid = (field: string, message: string) =>
  raise("validation_failed", `The key's ${field} ${message}.`, { details: [{ field, message }] });

/** `scopes` (default `["admin"]`) and `forms` (default: every form) of a new key, checked. */
function grantOf(input: { scopes?: unknown; forms?: unknown }) {
  const { scopes = ["admin"], forms = null } = input;
  if (
    !Array.isArray(scopes) ||
    scopes.length < 1 ||
    scopes.length > SCOPES.length ||
    !scopes.every((s) => SCOPES.includes(s as Scope)) ||
    new Set(scopes).size !== scopes.length
  )
    invalid("scopes", `must be a list of ${SCOPES.map((s) => `"${s}"`).join(", ")}`);
  if (
    forms !== null &&
    (!Array.isArray(forms) ||
      forms.length < 1 ||
      forms.length > 100 ||
      !forms.every((f) => typeof f === "string" && SLUG.test(f)))
  )
    invalid("forms", "must be a list of 1 to 100 form slugs");
  return {
    scopes: scopes as Scope[],
    forms: forms === null ? null : [...new Set(forms as string[])],
  };
}

export async function createKey(
  ctx: AppContext,
  account: Account,
  input: { name?: unknown; scopes?: unknown; forms?: unknown; member_id?: unknown },
) {
  const { name } = input;
  if (name !== undefined && (typeof name !== "string" || name.length > 100))
    invalid("name", "must be text of at most 100 characters");
  // a key for a member (SPEC §26): named by an owner (by default with the role's scope), or made
  // with the member's own key
  const named = await namedMember(ctx, account, input.member_id);
  const grant = grantOf(
    named && input.scopes === undefined ? { ...input, scopes: [ROLE_SCOPE[named.role]] } : input,
  );
  // a key never makes a key that may do more than itself, nor a member's more than the role
  const level = levelOf(grant.scopes);
  if (!allows(account.scope, level))
    raise(
      "forbidden",
      `This key has the "${account.scope}" scope; it cannot create a "${level}" key.`,
    );
  if (named && !allows(ROLE_SCOPE[named.role], level))
    raise(
      "forbidden",
      `A member with the role "${named.role}" holds keys of at most the "${ROLE_SCOPE[named.role]}" scope; this key would be "${level}".`,
      { details: [{ field: "scopes", message: `at most "${ROLE_SCOPE[named.role]}"` }] },
    );
  await checkKeyBounds(ctx, account);
  const memberId = named?.id ?? account.memberId ?? null;
  const key = await issueKey(ctx, account.id, name as string | undefined, grant, memberId);
  return {
    id: key.id,
    api_key: key.key,
    prefix: key.prefix,
    name: key.name,
    scopes: key.scopes,
    forms: key.forms,
    created_at: key.created_at,
    member_id: memberId,
  };
}

/** The live member of this account a new key is made for, when the body names one. */
async function namedMember(ctx: AppContext, account: Account, named: unknown) {
  if (named === undefined || named === null) return null;
  if (typeof named !== "string" || !UUID.test(named)) invalid("member_id", "must be a member id");
  const [member] = await ctx.db.query<{ id: string; role: Role }>(
    "select id, role from members where id = $1 and account_id = $2 and removed_at is null",
    [named, account.id],
  );
  if (!member) raise("not_found", "No such member (see GET /api/members).");
  return member!;
}

export async function listKeys(ctx: AppContext, account: Account) {
  return ctx.db.query(
    `select id, prefix, name, scopes, forms, member_id, created_at, last_used_at, revoked_at
       from api_keys
      where account_id = $1 order by created_at desc`,
    [account.id],
  );
}

export async function revokeKey(ctx: AppContext, account: Account, id: string) {
  if (!UUID.test(id)) raise("not_found", "No such key.");
  const [row] = await ctx.db.query<{ account_id: string }>(
    "select account_id from api_keys where id = $1",
    [id],
  );
  if (!row) raise("not_found", "No such key.");
  if (row!.account_id !== account.id) raise("forbidden", "That key belongs to another account.");
  await ctx.db.query("update api_keys set revoked_at = coalesce(revoked_at, now()) where id = $1", [
    id,
  ]);
}
