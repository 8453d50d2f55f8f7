// The one statement every submit is written with (TECH.md §10): a lone submit, a test answer, or
// several plain submits that arrived together (submit-write.ts), built here from fixed fragments
// (never from input). The response's columns are listed once (COLUMNS); a row writes a column
// only when it holds a value, so the common submit — no cap, no email due, no upload — is a
// single INSERT, the plan a bare insert gets, and a new column is one line there.
// `seq` comes from the form's own sequence (unique, lock-free; a failed submit leaves a gap),
// named here rather than looked up.
//
// Caps and emails count stored responses, never `seq` (SPEC §17, §19; migration
// 20261125000400): a capped submit, or one with an email due, is still one statement, shaped
//   with b as (update form_counters set responses = responses + 1
//                where form_id = $f [and responses < cap] returning responses as n),
//        i as (insert into form_counters … count(*) + 1 … where not exists (select 1 from b)
//                on conflict (form_id) do update … [where responses < cap] returning …),
//        c as (select n from b union all select n from i),   -- n: this response's number
//        r as (insert into responses … select … from c),   -- no c row: no insert
//        o as (insert into outbox … where c.n <= immediate / m <= c.n …), d …, u …
//   select r.id, r.seq, c.n …
// On Postgres (READ COMMITTED) an UPDATE waiting on the counter row re-checks its guard against
// the committed value, so concurrent submits cannot pass the cap; a submit that then fails (the
// same Idempotency-Key, unique index) rolls its bump back and spends no place. The counter row
// is made from count(*) by the first counting submit (its ON CONFLICT covers two at once). A
// milestone email is written when n reaches it, and the unique index on (form, milestone) keeps
// it to exactly one; any later counting submit fills in a milestone a failed one skipped.

import { binder } from "../db/bind.ts";
import { COPY_LIMIT, copyKey } from "../mail/respondent-recipients.ts";

/** A response as a submit writes it, by column (JSON as text); null or absent: not written. */
export interface ResponseRow {
  /** response-id.ts */
  id: string;
  form_id: string;
  payload: string;
  score?: string | null;
  /** The ending the path reached (SPEC §24), on forms that choose one. */
  ending?: string | null;
  /** The variables' values as JSON, on forms that have variables. */
  variables?: string | null;
  /** The version of the form file the answers were validated against. */
  commit_sha?: string | null;
  /** Seconds from the first answer to the submit, as the page counted them. */
  seconds?: number | null;
  /** The form version the answers were validated against (SPEC §16). */
  version?: number | null;
  /** The language the respondent read (SPEC §20). */
  lang?: string | null;
  idempotency_key?: string | null;
  /** Hash of the request the key was first sent with (idempotency.ts requestHash). */
  idempotency_hash?: string | null;
  /** A test answer (SPEC §16): seq 0 (the form's sequence untouched), no email, no webhook. */
  test?: true | null;
  /**
   * The personal link answered with (SPEC §25): the response is written only while the invite
   * is unspent, not revoked and not expired, and spends it in the same statement.
   */
  invite?: string | null;
  invite_email?: string | null;
}

/** Each column's SQL type: the one list the lone and the shared INSERT are built from. */
const COLUMNS = {
  id: "uuid",
  form_id: "uuid",
  payload: "jsonb",
  score: "jsonb",
  ending: "text",
  variables: "jsonb",
  commit_sha: "text",
  seconds: "int",
  version: "int",
  lang: "text",
  idempotency_key: "text",
  idempotency_hash: "text",
  test: "boolean",
  invite: "text",
  invite_email: "text",
} as const satisfies Record<keyof ResponseRow, string>;
const NAMES = Object.keys(COLUMNS) as (keyof ResponseRow)[];

export interface SubmitWrite {
  row: ResponseRow;
  /** formSequence(form_id): numbering the row through it is what ties the row to its form. */
  sequence: string;
  /** The form's webhooks for `response.created`: their delivery rows are written here too. */
  hooks?: string[];
  /** When the submit must be answered (QueryOptions.answerBy): a row still queued then fails. */
  answerBy?: number;
  // What only a submit's statement of its own carries (sharable):
  maxResponses?: number | null;
  /** Recipients, immediate count and milestone counts; null when no email can be due. */
  outbox?: { recipients: string; immediate: number; milestones: number[] } | null;
  /** The respondent's confirmation: `[address]` as JSON, the answer of its email field. */
  respondent?: string | null;
  uploads?: string[];
  /** The resume token of the partial this submit completes (SPEC §25): deleted with it. */
  partial?: string | null;
}

/** Whether a submit may share an INSERT with others: it writes its row and deliveries only. */
export const sharable = ({ row, ...w }: SubmitWrite) =>
  (w.maxResponses ?? null) === null &&
  !w.outbox &&
  !w.respondent &&
  !w.uploads?.length &&
  !w.partial &&
  !row.idempotency_key &&
  !row.test &&
  !row.invite;

/** The name of a form's response sequence (the migration's `formdown_form_seq`). */
export function formSequence(formId: string): string {
  return `formdown_seq_${formId.replaceAll("-", "").toLowerCase()}`;
}

/**
 * A submit's `lease` for deliveries handed over without a row (the embedded database): the
 * statement writes none and answers the response's `submitted_at`, the deliveries' creation; the
 * sender records what became of them (migration …000200_webhook_handed_over).
 */
export const HANDED_OVER = "handed-over";

/**
 * Seconds of lease on the deliveries, when this process's sender takes them straight from the
 * submit (webhooks/handover.ts handOver), or HANDED_OVER (no row: this sender records them);
 * null writes them due now, for any sender to claim.
 */
export type Lease = number | typeof HANDED_OVER | null;

/**
 * The `response.created` deliveries of the responses in CTE `r` (webhooks.ts, SPEC §11): one per
 * webhook of the row's form that wants the event, written in the response's own statement, so an
 * acknowledged response always has them.
 *
 * With `lease` (a parameter, in seconds) the rows are written already claimed — first attempt
 * counted, not due before the lease runs out — exactly as claimDeliveries would leave them, and
 * returned, so this process's sender attempts them at once without a claim query. A process that
 * dies first leaves them to any sender once the lease is over: nothing is lost, and no other
 * sender can take them while this one may still be sending.
 */
const DELIVERIES = (lease?: string) =>
  lease
    ? `insert into webhook_deliveries (webhook_id, event, response_id, attempts, next_attempt_at)
      select w.id, 'response.created', r.id, 1, now() + make_interval(secs => ${lease}::float8)
        from r join webhooks w on w.form_id = r.form_id where 'response.created' = any(w.events)
      returning id, webhook_id, response_id, created_at`
    : `insert into webhook_deliveries (webhook_id, event, response_id)
      select w.id, 'response.created', r.id from r join webhooks w
        on w.form_id = r.form_id where 'response.created' = any(w.events)`;

type Bind = (value: unknown) => string;

/**
 * The INSERT of the rows: one row's values, or several rows' columns as arrays through unnest;
 * `from` names the CTEs a lone row is written only with (the counter, the invite).
 */
function insertRows(ws: readonly SubmitWrite[], p: Bind, from: string[], returning: string) {
  const names = NAMES.filter((c) => ws.some((w) => w.row[c] !== null && w.row[c] !== undefined));
  const at: Partial<Record<keyof ResponseRow, string>> = {};
  let select: string;
  if (ws.length === 1) {
    const { row, sequence } = ws[0]!;
    for (const c of names) at[c] = p(row[c]);
    const values = names.map((c) => `${at[c]}::${COLUMNS[c]}`);
    const seq = row.test ? "0" : `nextval(${p(sequence)}::regclass)`;
    select = `select ${values.join(", ")}, ${seq}${from.length ? ` from ${from.join(", ")}` : ""}`;
  } else {
    const arrays = names.map((c) => `${p(ws.map((w) => w.row[c] ?? null))}::${COLUMNS[c]}[]`);
    select = `select ${names.map((c) => `r.${c}`).join(", ")}, nextval(r.sequence::regclass)
      from unnest(${arrays.join(", ")}, ${p(ws.map((w) => w.sequence))}::text[])
        as r(${names.join(", ")}, sequence)`;
  }
  const text = `insert into responses (${names.join(", ")}, seq)
      ${select}
      returning ${returning}`;
  return { text, at };
}

/**
 * The statement of `ws`: one submit with all it brings along, or several sharable ones (one
 * round trip, one plan and one commit for the lot). Answers a row per response (per delivery
 * when leased) with its id and seq, `n` when it counted, `submitted_at` when handed over.
 */
export function submitStatement(ws: readonly SubmitWrite[], lease: Lease = null) {
  const params: unknown[] = [];
  const p: Bind = binder(params);
  // what only a lone submit carries; a shared INSERT's rows are sharable
  const w: SubmitWrite = ws.length === 1 ? ws[0]! : { row: ws[0]!.row, sequence: "" };
  const hooked = ws.some((x) => (x.hooks?.length ?? 0) > 0);
  const handed = hooked && lease === HANDED_OVER;
  const leased = hooked && typeof lease === "number";
  const webhooks = hooked && !handed;
  const counted = ws.length === 1 && ((w.maxResponses ?? null) !== null || !!w.outbox);
  const invite = ws.length === 1 && !!w.row.invite;
  const returning = `id, seq${webhooks ? ", form_id" : ""}${handed ? ", submitted_at" : ""}`;
  const from = [...(counted ? ["c"] : []), ...(invite ? ["v"] : [])];
  const { text: insert, at } = insertRows(ws, p, from, returning);
  const form = at.form_id!;
  const parts: string[] = [];
  if (invite) {
    parts.push(`v as (
      select token from invites where form_id = ${form} and token = ${at.invite}
        and answered_at is null and revoked_at is null and (expires_at is null or expires_at > now()))`);
  }
  if (counted) {
    const guard = invite ? " and exists (select 1 from v)" : "";
    const cap = (w.maxResponses ?? null) === null ? null : p(w.maxResponses);
    parts.push(`b as (
      update form_counters set responses = responses + 1
      where form_id = ${form}${cap ? ` and responses < ${cap}` : ""}${guard} returning responses as n)`);
    parts.push(`i as (
      insert into form_counters as fc (form_id, responses)
      select ${form}, x.n from (select count(*)::int + 1 as n from responses where form_id = ${form} and not test) x
      where not exists (select 1 from b)${cap ? ` and x.n <= ${cap}` : ""}${guard}
      on conflict (form_id) do update set responses = fc.responses + 1${cap ? ` where fc.responses < ${cap}` : ""}
      returning responses as n)`);
    parts.push("c as (select n from b union all select n from i)");
  }
  parts.push(`r as (${insert})`);
  if (w.partial) {
    parts.push(`pd as (
      delete from partials where form_id = ${form} and token = ${p(w.partial)} and exists (select 1 from r))`);
  }
  if (invite) {
    parts.push(`va as (
      update invites set answered_at = now() from r where invites.form_id = ${form} and invites.token = ${at.invite})`);
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
  if (webhooks) parts.push(`d as (${DELIVERIES(leased ? p(lease) : undefined)})`);
  if (w.uploads?.length) {
    parts.push(`u as (
      update uploads set response_id = r.id from r where uploads.form_id = ${form} and uploads.url = any(${p(w.uploads)}::text[]))`);
  }
  if (parts.length === 1) return { text: insert, params };
  const n = counted ? ", (select n from c) as n" : "";
  const result = leased
    ? `select r.id, r.seq${n}, d.id as delivery_id, d.webhook_id, d.created_at from r left join d on d.response_id = r.id`
    : `select r.id, r.seq${n}${handed ? ", r.submitted_at" : ""} from r`;
  return { text: `with ${parts.join(",\n")}\n${result}`, params };
}

/**
 * The respondent's copy (SPEC §21), no relay (§23): a place among the address's last 24 hours of
 * copies from this form (migration 20261128000100, `q`), then the outbox row only if it got one;
 * past the limit the copy is dropped and counted.
 */
function respondentCopy(form: string, recipients: string, p: Bind) {
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
