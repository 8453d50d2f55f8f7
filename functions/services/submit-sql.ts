// The submit's one statement (TECH.md §10): the response, and — only when the form needs them —
// outbox rows and upload links, written together (the rate limiter counts in memory, limiter/).
// `seq` comes from the form's own sequence (unique, lock-free; a failed submit leaves a gap), named
// here rather than looked up. The text is assembled from the fixed fragments below (never from
// input), so the common submit — no cap, no email due, no upload — is a single INSERT … VALUES,
// the plan a bare insert gets.
//
// Caps and emails count stored responses, never `seq` (SPEC §17, §19; migration
// 20261125000400): a capped submit, or one with an email due, is still one statement, shaped
//   with b as (update form_counters set responses = responses + 1
//                where form_id = $f [and responses < cap] returning responses as n),
//        i as (insert into form_counters … count(*) + 1 … where not exists (select 1 from b)
//                on conflict (form_id) do update … [where responses < cap] returning …),
//        c as (select n from b union all select n from i),   -- n: this response's number
//        r as (insert into responses … select … from c, nextval(…)),   -- no c row: no insert
//        o as (insert into outbox … where c.n <= immediate / m <= c.n …), d …, u …
//   select r.id, r.seq, c.n …
// On Postgres (READ COMMITTED) an UPDATE waiting on the counter row re-checks its guard against
// the committed value, so concurrent submits cannot pass the cap; a submit that then fails (the
// same Idempotency-Key, unique index) rolls its bump back and spends no place. The counter row
// is made from count(*) by the first counting submit (its ON CONFLICT covers two at once). A
// milestone email is written when n reaches it, and the unique index on (form, milestone) keeps
// it to exactly one; any later counting submit fills in a milestone a failed one skipped.

import { COPY_LIMIT, copyKey } from "../mail/respondent-recipients.ts";

export interface SubmitWrite {
  /** The response's id (response-id.ts); without it the database draws one. */
  id?: string;
  formId: string;
  /** formSequence(formId) */
  sequence: string;
  /** The version of the form file the answers were validated against. */
  commitSha: string | null;
  /** The form version the answers were validated against (SPEC §16). */
  version?: number | null;
  maxResponses: number | null;
  payload: string;
  score: string | null;
  /** The ending the path reached (SPEC §24), on forms that choose one. */
  ending?: string | null;
  /** The variables' values as JSON, on forms that have variables. */
  variables?: string | null;
  /** Seconds from the first answer to the submit, as the page counted them. */
  seconds?: number | null;
  /** The language the respondent read (SPEC §20). */
  lang?: string | null;
  idempotencyKey: string | null;
  /** Hash of the request the key was first sent with (submit.ts requestHash). */
  idempotencyHash?: string | null;
  /** Recipients, immediate count and milestone counts; null when no email can be due. */
  outbox: { recipients: string; immediate: number; milestones: number[] } | null;
  /** The respondent's confirmation: `[address]` as JSON, the answer of its email field. */
  respondent?: string | null;
  uploads: string[];
  /** The form's webhooks for `response.created`: their delivery rows are written here too. */
  hooks?: string[];
  /**
   * Seconds of lease on those deliveries, when this process's sender takes them straight from
   * the submit (webhooks/handover.ts handOver), or HANDED_OVER (no row: this sender records
   * them); null or absent writes them due now, for any sender to claim.
   */
  lease?: number | typeof HANDED_OVER | null;
  /** A test answer (SPEC §16): flagged, seq 0 (the form's sequence untouched), no email, no webhook. */
  test?: boolean;
  /**
   * The personal link answered with (SPEC §25): the response is written only while the invite
   * is unspent, not revoked and not expired, and spends it in the same statement.
   */
  invite?: { token: string; email: string | null } | null;
  /** The resume token of the partial this submit completes (SPEC §25): deleted with it. */
  partial?: string | null;
}

/** The name of a form's response sequence (the migration's `formdown_form_seq`). */
export function formSequence(formId: string): string {
  return `formdown_seq_${formId.replaceAll("-", "").toLowerCase()}`;
}

/**
 * SubmitWrite's `lease` for deliveries handed over without a row (the embedded database): the
 * statement writes none and answers the response's `submitted_at`, the deliveries' creation; the
 * sender records what became of them (migration …000200_webhook_handed_over).
 */
export const HANDED_OVER = "handed-over";

/**
 * The `response.created` deliveries of the responses in CTE `from` (webhooks.ts, SPEC §11): one
 * per webhook of the form that wants the event, written in the response's own statement, so an
 * acknowledged response always has them. `form` is the form id's parameter, or null to join on
 * each row's own form (the shared INSERT of several forms' rows).
 *
 * With `lease` (a parameter, in seconds) the rows are written already claimed — first attempt
 * counted, not due before the lease runs out — exactly as claimDeliveries would leave them, and
 * returned, so this process's sender attempts them at once without a claim query. A process that
 * dies first leaves them to any sender once the lease is over: nothing is lost, and no other
 * sender can take them while this one may still be sending.
 */
export const DELIVERIES = (from: string, form: string | null, lease?: string) =>
  lease
    ? `insert into webhook_deliveries (webhook_id, event, response_id, attempts, next_attempt_at)
      select w.id, 'response.created', ${from}.id, 1, now() + make_interval(secs => ${lease}::float8)
        from ${from} join webhooks w
        on w.form_id = ${form ?? `${from}.form_id`} where 'response.created' = any(w.events)
      returning id, webhook_id, response_id, created_at`
    : `insert into webhook_deliveries (webhook_id, event, response_id)
      select w.id, 'response.created', ${from}.id from ${from} join webhooks w
        on w.form_id = ${form ?? `${from}.form_id`} where 'response.created' = any(w.events)`;

/**
 * The submit's final SELECT: the response, and the leased deliveries when there are some;
 * `counted` adds the response's number `n` from CTE `c` (the counter).
 */
export const RESULT = (leased: boolean, counted = false, handed = false) => {
  const n = counted ? ", (select n from c) as n" : "";
  return leased
    ? `select r.id, r.seq${n}, d.id as delivery_id, d.webhook_id, d.created_at from r left join d on d.response_id = r.id`
    : `select r.id, r.seq${n}${handed ? ", r.submitted_at" : ""} from r`;
};

export function submitStatement(w: SubmitWrite): { text: string; params: unknown[] } {
  const params: unknown[] = [];
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const form = p(w.formId);
  const seq = w.test ? "0" : `nextval(${p(w.sequence)}::regclass)`;
  // optional columns only when they hold a value: each parameter costs, on PGlite most of all
  const columns = ["form_id", "payload"];
  const values = [form, `${p(w.payload)}::jsonb`];
  if (w.id) {
    columns.push("id");
    values.push(`${p(w.id)}::uuid`);
  }
  const optional = {
    score: w.score,
    ending: w.ending,
    variables: w.variables,
    idempotency_key: w.idempotencyKey,
    idempotency_hash: w.idempotencyHash,
    commit_sha: w.commitSha,
    seconds: w.seconds,
    version: w.version,
    lang: w.lang,
    test: w.test ? true : null,
    invite: w.invite?.token,
    invite_email: w.invite?.email,
  };
  for (const [column, value] of Object.entries(optional)) {
    if (value === null || value === undefined) continue;
    columns.push(column);
    values.push(column === "score" || column === "variables" ? `${p(value)}::jsonb` : p(value));
  }
  const insert = `insert into responses (${columns.join(", ")}, seq)`;
  const row = values.join(", ");
  // deliveries handed over without a row: none written here, the response's instant answered
  const handed = (w.hooks?.length ?? 0) > 0 && w.lease === HANDED_OVER;
  const webhooks = (w.hooks?.length ?? 0) > 0 && !handed;
  const returning = handed ? "id, seq, submitted_at" : "id, seq";
  const counted = w.maxResponses !== null || w.outbox !== null;
  if (!counted && w.uploads.length === 0 && !webhooks && !w.respondent && !w.invite && !w.partial) {
    return { text: `${insert} values (${row}, ${seq}) returning ${returning}`, params };
  }
  const parts: string[] = [];
  let invite = "";
  let token = "";
  if (w.invite) {
    token = p(w.invite.token);
    parts.push(`v as (
      select token from invites where form_id = ${form} and token = ${token}
        and answered_at is null and revoked_at is null and (expires_at is null or expires_at > now()))`);
    invite = " and exists (select 1 from v)";
  }
  if (counted) {
    const cap = w.maxResponses === null ? null : p(w.maxResponses);
    parts.push(`b as (
      update form_counters set responses = responses + 1
      where form_id = ${form}${cap ? ` and responses < ${cap}` : ""}${invite} returning responses as n)`);
    parts.push(`i as (
      insert into form_counters as fc (form_id, responses)
      select ${form}, x.n from (select count(*)::int + 1 as n from responses where form_id = ${form} and not test) x
      where not exists (select 1 from b)${cap ? ` and x.n <= ${cap}` : ""}${invite}
      on conflict (form_id) do update set responses = fc.responses + 1${cap ? ` where fc.responses < ${cap}` : ""}
      returning responses as n)`);
    parts.push("c as (select n from b union all select n from i)");
  }
  parts.push(`r as (
      ${insert}
      select ${row}, s.seq from ${counted ? "c, " : ""}${w.invite ? "v, " : ""}${seq} as s(seq)
      returning ${returning})`);
  if (w.partial) {
    parts.push(`pd as (
      delete from partials where form_id = ${form} and token = ${p(w.partial)} and exists (select 1 from r))`);
  }
  if (w.invite) {
    parts.push(`va as (
      update invites set answered_at = now() from r where invites.form_id = ${form} and invites.token = ${token})`);
  }
  if (w.outbox) {
    const to = p(w.outbox.recipients);
    parts.push(`o as (
      insert into outbox (form_id, response_id, kind, milestone, recipients)
      select ${form}, r.id, 'response', null, ${to}::jsonb from r, c where c.n <= ${p(w.outbox.immediate)}
      union all
      select ${form}, r.id, 'milestone', m, ${to}::jsonb from r, c, unnest(${p(w.outbox.milestones)}::int[]) m where m <= c.n
      on conflict (form_id, milestone) where kind = 'milestone' do nothing)`);
  }
  if (w.respondent) parts.push(...respondentCopy(form, w.respondent, p));
  const leased = Boolean(webhooks && w.lease);
  if (webhooks) parts.push(`d as (${DELIVERIES("r", form, leased ? p(w.lease) : undefined)})`);
  if (w.uploads.length > 0) {
    parts.push(`u as (
      update uploads set response_id = r.id from r where uploads.form_id = ${form} and uploads.url = any(${p(w.uploads)}::text[]))`);
  }
  return { text: `with ${parts.join(",\n")}\n${RESULT(leased, counted, handed)}`, params };
}

/**
 * The respondent's copy (SPEC §21), no relay (§23): a place among the address's last 24 hours of
 * copies from this form (migration 20261128000100, `q`), then the outbox row only if it got one;
 * past the limit the copy is dropped and counted.
 */
function respondentCopy(form: string, recipients: string, p: (value: unknown) => string) {
  const recent = "formdown_recent_copies(rc.sent)";
  const room = `cardinality(${recent}) < ${COPY_LIMIT}`;
  return [
    `q as (
      insert into respondent_copies as rc (form_id, address, sent)
      select ${form}, encode(sha256(convert_to(${p(copyKey(recipients))}, 'UTF8')), 'hex'), array[now()] from r
      on conflict (form_id, address) do update set
        accepted = ${room},
        sent = case when ${room} then ${recent} || now() else ${recent} end,
        dropped = rc.dropped + case when ${room} then 0 else 1 end
      returning accepted)`,
    `cr as (
      insert into outbox (form_id, response_id, kind, milestone, recipients)
      select ${form}, r.id, 'respondent', null, ${p(recipients)}::jsonb from r, q where q.accepted
      on conflict (response_id) where kind = 'respondent' do nothing)`,
  ];
}
