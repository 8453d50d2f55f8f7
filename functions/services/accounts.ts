import { raise } from "../../src/core/errors.ts";
import type { AppContext } from "../context.ts";
import { constantTimeEqual, randomToken, sha256Hex } from "../crypto.ts";
import { FULL_GRANT, type KeyGrant, levelOf, narrower, ROLE_SCOPE, type Role } from "../scopes.ts";

/** Who is calling, and what their key may do (`scope`, `forms`: SPEC §23). */
export interface Account extends KeyGrant {
  id: string;
  handler: string;
  email: string | null;
  /** The key the request was made with (null when acting from start-up). */
  keyId: string | null;
  /** The member the key belongs to (SPEC §26; null or absent: the account's own key). */
  memberId?: string | null;
  /** Who is acting, as the audit log names them: the member's email, else the key's name. */
  actor?: string;
  /** The client's address, for the audit log (set by the route that authenticated the key). */
  ip?: string | null;
}

const HANDLER = /^[a-z0-9][a-z0-9-]{0,38}$/;

/** A new API key: `fd_` plus 43 random characters. Only its hash is stored. */
export async function issueKey(
  ctx: AppContext,
  accountId: string,
  name?: string,
  grant: { scopes: string[]; forms: string[] | null } = { scopes: ["admin"], forms: null },
  memberId: string | null = null,
) {
  const key = `fd_${randomToken(32)}`;
  const [row] = await ctx.db.query<{ id: string; created_at: string }>(
    `insert into api_keys (account_id, prefix, hash, name, scopes, forms, member_id)
     values ($1, $2, $3, $4, $5::text[], $6::text[], $7) returning id, created_at`,
    [
      accountId,
      key.slice(0, 7),
      await sha256Hex(key),
      name ?? null,
      grant.scopes,
      grant.forms,
      memberId,
    ],
  );
  return {
    id: row!.id,
    key,
    prefix: key.slice(0, 7),
    name: name ?? null,
    scopes: grant.scopes,
    forms: grant.forms,
    created_at: row!.created_at,
  };
}

export async function createAccount(
  ctx: AppContext,
  input: { handler?: unknown; email?: unknown },
) {
  const handler = input.handler;
  if (typeof handler !== "string" || !HANDLER.test(handler)) {
    raise("validation_failed", "The handler must be lowercase letters, digits and hyphens.", {
      details: [
        { field: "handler", message: "must be lowercase letters, digits and hyphens (up to 39)" },
      ],
    });
  }
  const email = input.email;
  if (
    email !== undefined &&
    (typeof email !== "string" || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
  ) {
    raise("validation_failed", "The email is not an email address.", {
      details: [{ field: "email", message: "must be an email address" }],
    });
  }
  const rows = await ctx.db.query<{ id: string }>(
    "insert into accounts (handler, email) values ($1, $2) on conflict (handler) do nothing returning id",
    [handler, (email as string | undefined) ?? null],
  );
  if (rows.length === 0) raise("conflict", `The handler "${handler as string}" is taken.`);
  const key = await issueKey(ctx, rows[0]!.id, "default");
  return { account_id: rows[0]!.id, handler: handler as string, api_key: key.key };
}

/**
 * The account behind a bearer key, or null. The lookup is by hash; the compare constant-time. A
 * member's key holds at most what the member's role allows, and nothing once they are removed.
 */
export async function accountForKey(ctx: AppContext, key: string): Promise<Account | null> {
  if (!key.startsWith("fd_") || key.length > 100) return null;
  const hash = await sha256Hex(key);
  const rows = await ctx.db.query<{
    key_id: string;
    hash: string;
    id: string;
    handler: string;
    email: string | null;
    scopes: string[];
    forms: string[] | null;
    key_name: string | null;
    prefix: string;
    member_id: string | null;
    member_email: string | null;
    role: Role | null;
  }>(
    `select k.id as key_id, k.hash, k.scopes, k.forms, k.name as key_name, k.prefix,
            a.id, a.handler, a.email, k.member_id, m.email as member_email, m.role
       from api_keys k join accounts a on a.id = k.account_id
       left join members m on m.id = k.member_id
      where k.hash = $1 and k.revoked_at is null and (k.member_id is null or m.removed_at is null)`,
    [hash],
    { prepare: true },
  );
  const row = rows[0];
  if (!row || !constantTimeEqual(row.hash, hash)) return null;
  const level = levelOf(row.scopes);
  return {
    id: row.id,
    handler: row.handler,
    email: row.email,
    keyId: row.key_id,
    scope: row.role ? narrower(level, ROLE_SCOPE[row.role]) : level,
    forms: row.forms,
    memberId: row.member_id,
    actor: row.member_email ?? row.key_name ?? `${row.prefix}…`,
  };
}

export async function accountByHandler(ctx: AppContext, handler: string): Promise<Account | null> {
  const [row] = await ctx.db.query<{ id: string; handler: string; email: string | null }>(
    "select id, handler, email from accounts where handler = $1",
    [handler],
  );
  return row ? { ...row, keyId: null, ...FULL_GRANT } : null;
}

/** Who the caller is, where their form files live, and how many forms they have. */
export async function accountOverview(ctx: AppContext, account: Account) {
  const [row] = await ctx.db.query<{ forms: number }>(
    "select count(*)::int as forms from forms where account_id = $1",
    [account.id],
  );
  return {
    handler: account.handler,
    forms_dir: `forms/@${account.handler}/`,
    forms: row?.forms ?? 0,
  };
}
