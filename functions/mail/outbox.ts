import type { AppContext } from "../context.ts";
import type { Account } from "../services/accounts.ts";

/** The emails due or sent for the caller's forms, newest first (the embedded mailbox). */
export async function listOutbox(ctx: AppContext, account: Account, limit: number, offset: number) {
  const [emails, count] = await Promise.all([
    ctx.db.query(
      `select o.id, f.slug as form, o.kind, o.milestone, o.recipients as "to", o.subject, o.status, o.attempts,
              o.last_error, o.created_at, o.sent_at, o.text_body as text
         from outbox o join forms f on f.id = o.form_id
        where f.account_id = $1 order by o.created_at desc, o.id desc limit $2 offset $3`,
      [account.id, limit, offset],
    ),
    ctx.db.query<{ total: number }>(
      "select count(*)::int as total from outbox o join forms f on f.id = o.form_id where f.account_id = $1",
      [account.id],
    ),
  ]);
  return { emails, limit, offset, total: count[0]?.total ?? 0 };
}
