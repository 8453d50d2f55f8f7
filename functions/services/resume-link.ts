// The resume link by email (SPEC §25): once a partial response names an email address, the
// respondent is sent one link that continues it on any device (kind `resume`, composed by
// mail/resume-email.ts in the page's language). Once per partial, and no relay (SPEC §23):
// it takes a place among the address's copies from this form in the last 24 hours, the places
// the respondent's copy takes (respondent_copies: at most 3; past them it is dropped and counted).
import type { Form } from "../../src/core/schema.ts";
import { checkAnswer } from "../../src/core/validate-answers.ts";
import type { AppContext } from "../context.ts";
import { COPY_LIMIT, copyKey, plainMailbox } from "../mail/respondent-recipients.ts";

/**
 * The address a partial's answers name, or null: the answer of the field the respondent's copy
 * goes to when the form names one, else of its first email field answered with a plain mailbox.
 */
export function resumeAddress(form: Form, answers: Record<string, unknown>): string | null {
  const named = form.notifications.respondent?.email_field;
  const fields = form.fields.filter((f) => f.type === "email");
  fields.sort((a, b) => Number(b.id === named) - Number(a.id === named));
  for (const field of fields) {
    const v = answers[field.id];
    if (typeof v === "string" && checkAnswer(field, v) === null && plainMailbox(v)) return v;
  }
  return null;
}

const RECENT = "formdown_recent_copies(rc.sent)";
const ROOM = `cardinality(${RECENT}) < ${COPY_LIMIT}`;

/**
 * One statement: the partial is marked mailed (only the first save that names an address gets
 * past this), the address takes a place (or the link is dropped and counted), and the outbox row
 * is written only if it got one. $1 partial, $2 form, $3 the address as the limit counts it, $4
 * the recipients.
 */
const QUEUE = `with p as (
    update partials set mailed = true where id = $1::uuid and form_id = $2::uuid and not mailed
    returning id),
  q as (
    insert into respondent_copies as rc (form_id, address, sent)
    select $2::uuid, encode(sha256(convert_to($3::text, 'UTF8')), 'hex'), array[now()] from p
    on conflict (form_id, address) do update set
      accepted = ${ROOM},
      sent = case when ${ROOM} then ${RECENT} || now() else ${RECENT} end,
      dropped = rc.dropped + case when ${ROOM} then 0 else 1 end
    returning accepted),
  o as (
    insert into outbox (form_id, kind, recipients, partial)
    select $2::uuid, 'resume', $4::jsonb, p.id from p, q where q.accepted
    on conflict (partial) where kind = 'resume' do nothing
    returning id)
  select (select count(*) from o)::int as queued`;

/** Queues the partial's resume link to `address`, unless it had one (or the limit drops it). */
export async function queueResumeLink(
  ctx: AppContext,
  formId: string,
  partialId: string,
  address: string,
): Promise<boolean> {
  const recipients = JSON.stringify([address]);
  const [row] = await ctx.db.query<{ queued: number }>(QUEUE, [
    partialId,
    formId,
    copyKey(recipients),
    recipients,
  ]);
  return (row?.queued ?? 0) > 0;
}
