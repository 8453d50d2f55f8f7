import type { AppContext } from "../context.ts";
import { needAllForms } from "../scopes.ts";
import type { Account } from "../services/accounts.ts";

/** The entries a query asks for: the account's ($1), in the range ($2, $3), of a form and an action. */
const MATCHING = `account_id = $1
        and ($2::timestamptz is null or at >= $2) and ($3::timestamptz is null or at < $3)
        and ($4::text is null or form = $4)
        and ($5::text is null or action = $5 or action like $5 || '.%')`;

export interface AuditQuery {
  since: string | null;
  until: string | null;
  form?: string | undefined;
  action?: string | undefined;
  page: number;
  limit: number;
}

/**
 * The account's audit log, newest first: `action` names one action (`responses.export`) or a
 * family of them (`responses`).
 */
export async function listAudit(ctx: AppContext, account: Account, q: AuditQuery) {
  // the whole account's log: REST's route says so (route-scopes.ts), MCP's list_audit did not,
  // and a key limited to one form read every form's entries (review of 2026-11-28)
  needAllForms(account, "The audit log");
  const rows = await ctx.db.query<{
    id: string;
    at: string;
    key_id: string | null;
    member_id: string | null;
    actor: string;
    action: string;
    form: string | null;
    detail: Record<string, unknown>;
    ip: string | null;
    total: number;
  }>(
    `select id, at, key_id, member_id, actor, action, form, detail, ip,
            count(*) over ()::int as total
       from audit_log where ${MATCHING}
      order by at desc, id desc
      limit $6 offset $7`,
    [
      account.id,
      q.since,
      q.until,
      q.form ?? null,
      q.action ?? null,
      q.limit,
      (q.page - 1) * q.limit,
    ],
  );
  return {
    entries: rows.map(({ total: _, key_id, member_id, actor, ...row }) => ({
      ...row,
      actor: { name: actor, key_id, member_id },
    })),
    page: q.page,
    limit: q.limit,
    total: rows[0]?.total ?? (q.page > 1 ? await countAudit(ctx, account, q) : 0),
  };
}

/** The count alone, for a page past the end (the window count comes with rows only). */
async function countAudit(ctx: AppContext, account: Account, q: AuditQuery) {
  const [row] = await ctx.db.query<{ n: number }>(
    `select count(*)::int as n from audit_log where ${MATCHING}`,
    [account.id, q.since, q.until, q.form ?? null, q.action ?? null],
  );
  return row?.n ?? 0;
}
