import { raise } from "../../src/core/errors.ts";
import type { AppContext } from "../context.ts";
import { randomToken, sha256Hex } from "../crypto.ts";
import { ROLE_SCOPE, type Role } from "../scopes.ts";
import type { Account } from "./accounts.ts";
import { checkKeyBounds } from "./keys.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Member {
  id: string;
  email: string;
  role: Role;
  created_at: string;
}

/**
 * A new member of the account and their first key, whose scope is the role's (SPEC §26): one
 * statement, so there is never a member without a key or a key of a member never made. An
 * address that is already a live member is 409 `conflict`.
 */
export async function addMember(
  ctx: AppContext,
  account: Account,
  input: { email: string; role: Role },
) {
  await checkKeyBounds(ctx, account);
  const email = input.email.trim();
  const key = `fd_${randomToken(32)}`;
  const scopes = [ROLE_SCOPE[input.role]];
  const [row] = await ctx.db.query<Member & { key_id: string; key_created_at: string }>(
    `with m as (
       insert into members (account_id, email, role) values ($1, $2, $3)
       on conflict (account_id, lower(email)) where removed_at is null do nothing
       returning id, email, role, created_at),
     k as (
       insert into api_keys (account_id, prefix, hash, name, scopes, member_id)
       select $1, $4, $5, left(m.email, 100), $6::text[], m.id from m
       returning id, created_at)
     select m.id, m.email, m.role, m.created_at, k.id as key_id, k.created_at as key_created_at
       from m, k`,
    [account.id, email, input.role, key.slice(0, 7), await sha256Hex(key), scopes],
  );
  if (!row)
    raise("conflict", `${email} is already a member; remove them first to change their role.`);
  const { key_id, key_created_at, ...member } = row!;
  return {
    member,
    key: {
      id: key_id,
      api_key: key,
      prefix: key.slice(0, 7),
      name: email.slice(0, 100),
      scopes,
      forms: null,
      created_at: key_created_at,
      member_id: member.id,
    },
  };
}

/** The account's live members, each with how many live keys they hold. */
export async function listMembers(ctx: AppContext, account: Account) {
  return ctx.db.query<Member & { keys: number }>(
    `select m.id, m.email, m.role, m.created_at,
            (select count(*) from api_keys k where k.member_id = m.id and k.revoked_at is null)::int
              as keys
       from members m
      where m.account_id = $1 and m.removed_at is null
      order by m.created_at, m.id`,
    [account.id],
  );
}

/**
 * Removes a member and revokes every key they hold, in one statement. Another account's member
 * is answered as no member at all.
 */
export async function removeMember(ctx: AppContext, account: Account, id: string) {
  if (!UUID.test(id)) raise("not_found", "No such member.");
  const [row] = await ctx.db.query<{ removed: number; revoked: number }>(
    `with m as (
       update members set removed_at = now()
        where id = $1 and account_id = $2 and removed_at is null returning id),
     k as (
       update api_keys set revoked_at = now()
        where member_id in (select id from m) and revoked_at is null returning id)
     select (select count(*) from m)::int as removed, (select count(*) from k)::int as revoked`,
    [id, account.id],
  );
  if (!row || row.removed === 0) raise("not_found", "No such member.");
  return { id, keys_revoked: row!.revoked };
}
