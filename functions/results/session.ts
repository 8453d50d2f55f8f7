import type { AppContext } from "../context.ts";
import { randomToken, sha256Hex } from "../crypto.ts";
import { levelOf, narrower, ROLE_SCOPE, type Role, type Scope } from "../scopes.ts";
import { type Account, accountForKey } from "../services/accounts.ts";

/** A session lasts 12 hours (SPEC §26); a sign-in link 15 minutes, once. */
export const SESSION_SECONDS = 12 * 3600;
const LINK_MINUTES = 15;
/** Sign-in links one address may be sent in an hour. */
const LINKS_PER_HOUR = 5;

/** What a page acts as: the account with the session's grant, and the form it checks writes by. */
export interface ResultsSession {
  account: Account;
  csrf: string;
}

/**
 * A one-time sign-in link for each live member with this address (at most LINKS_PER_HOUR an
 * hour), each as an outbox email. Answers nothing about whether the address is a member.
 */
export async function sendSignInLink(ctx: AppContext, email: string): Promise<void> {
  const members = await ctx.db.query<{ id: string; account_id: string; email: string }>(
    `select m.id, m.account_id, m.email from members m
      where lower(m.email) = lower($1) and m.removed_at is null
        and (select count(*) from results_sign_ins s
              where s.member_id = m.id and s.created_at > now() - interval '1 hour') < $2
      order by m.created_at limit 5`,
    [email, LINKS_PER_HOUR],
  );
  for (const m of members) {
    const token = randomToken(32);
    const link = `${ctx.config.baseUrl}/results/sign-in/${token}`;
    const text = `Open this link to see your team's form results (it works once, for ${LINK_MINUTES} minutes):\n\n${link}\n\nIf you did not ask for it, ignore this email.`;
    const html = `<p>Open this link to see your team's form results (it works once, for ${LINK_MINUTES} minutes):</p><p><a href="${link}">Sign in to Formdown results</a></p><p>If you did not ask for it, ignore this email.</p>`;
    await ctx.db.query(
      `with s as (
         insert into results_sign_ins (token_hash, account_id, member_id, expires_at)
         values ($1, $2, $3, now() + make_interval(mins => $4)) returning 1)
       insert into outbox (kind, recipients, subject, text_body, html_body)
       select 'sign_in', $5::jsonb, 'Sign in to Formdown results', $6, $7 from s`,
      [
        await sha256Hex(token),
        m.account_id,
        m.id,
        LINK_MINUTES,
        JSON.stringify([m.email]),
        text,
        html,
      ],
    );
  }
}

/** A new session for a member or a key; answers its cookie token. */
async function openSession(
  ctx: AppContext,
  accountId: string,
  who: { memberId: string | null; keyId: string | null },
): Promise<string> {
  const token = randomToken(32);
  await ctx.db.query(
    `insert into results_sessions (token_hash, account_id, member_id, key_id, csrf, expires_at)
     values ($1, $2, $3, $4, $5, now() + make_interval(secs => $6))`,
    [await sha256Hex(token), accountId, who.memberId, who.keyId, randomToken(24), SESSION_SECONDS],
  );
  return token;
}

/** Uses a sign-in link (once, unexpired, its member still live): a session token, or null. */
export async function signInWithLink(ctx: AppContext, token: string): Promise<string | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const [used] = await ctx.db.query<{ account_id: string; member_id: string }>(
    `update results_sign_ins s set used_at = now()
       from members m
      where s.token_hash = $1 and s.used_at is null and s.expires_at > now()
        and m.id = s.member_id and m.removed_at is null
      returning s.account_id, s.member_id`,
    [await sha256Hex(token)],
  );
  if (!used) return null;
  return openSession(ctx, used.account_id, { memberId: used.member_id, keyId: null });
}

/** A key pasted once: a session acting as that key (its scope and forms), or null. */
export async function signInWithKey(ctx: AppContext, key: string): Promise<string | null> {
  const account = await accountForKey(ctx, key.trim());
  if (!account) return null;
  return openSession(ctx, account.id, {
    memberId: account.memberId ?? null,
    keyId: account.keyId,
  });
}

/**
 * The session behind a cookie: live, unexpired, its member not removed and its key not revoked.
 * A member's session holds the role's scope; a key's, the key's (bounded by its member's role).
 */
export async function sessionFor(ctx: AppContext, token: string): Promise<ResultsSession | null> {
  if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) return null;
  const [row] = await ctx.db.query<{
    account_id: string;
    handler: string;
    email: string | null;
    csrf: string;
    member_id: string | null;
    member_email: string | null;
    role: Role | null;
    key_id: string | null;
    key_name: string | null;
    scopes: string[] | null;
    forms: string[] | null;
  }>(
    `select s.account_id, a.handler, a.email, s.csrf, s.member_id, m.email as member_email, m.role,
            s.key_id, k.name as key_name, k.scopes, k.forms
       from results_sessions s join accounts a on a.id = s.account_id
       left join members m on m.id = s.member_id
       left join api_keys k on k.id = s.key_id
      where s.token_hash = $1 and s.expires_at > now()
        and (s.member_id is null or m.removed_at is null)
        and (s.key_id is null or k.revoked_at is null)`,
    [await sha256Hex(token)],
  );
  if (!row) return null;
  let scope: Scope = row.scopes ? levelOf(row.scopes) : "admin";
  if (row.role) scope = narrower(scope, ROLE_SCOPE[row.role]);
  return {
    csrf: row.csrf,
    account: {
      id: row.account_id,
      handler: row.handler,
      email: row.email,
      keyId: row.key_id,
      memberId: row.member_id,
      actor: row.member_email ?? row.key_name ?? "key",
      scope,
      forms: row.forms,
    },
  };
}

/** Ends a session; expired ones are removed as sessions are opened. */
export async function signOut(ctx: AppContext, token: string): Promise<void> {
  await ctx.db.query(
    "delete from results_sessions where token_hash = $1 or expires_at < now() - interval '1 day'",
    [await sha256Hex(token)],
  );
}
