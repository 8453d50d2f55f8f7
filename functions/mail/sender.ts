import type { Form } from "../../src/core/schema.ts";
import type { Translations } from "../../src/core/translation.ts";
import type { AppContext } from "../context.ts";
import { outageKind } from "../db/outage.ts";
import { retried } from "../db/retry.ts";
import { viewLink } from "../links/view-links.ts";
import { inviteUrl } from "../services/invites.ts";
import { milestoneEmail, responseEmail } from "./compose-email.ts";
import { digestEmail, enqueueDigests } from "./digest.ts";
import { inviteEmail } from "./invite-email.ts";
import { respondentEmail } from "./respondent-email.ts";
import { resumeEmail, resumeUrl } from "./resume-email.ts";

interface Due {
  id: string;
  kind: "response" | "milestone" | "digest" | "respondent" | "invite" | "resume" | "sign_in";
  milestone: number | null;
  recipients: string[];
  attempts: number;
  slug: string;
  form_id: string;
  definition: Form;
  response_id: string | null;
  payload: Record<string, unknown> | null;
  /** The response's variables (SPEC §24), piped into subjects and the respondent's copy. */
  variables: Record<string, unknown> | null;
  submitted_at: string | null;
  digest_key: string | null;
  digest_from: string | null;
  digest_until: string | null;
  /** kind `invite`: the personal link's token (SPEC §25), and the form's handler for its URL. */
  invite: string | null;
  handler: string;
  /** The language the respondent read, and the form's translations (their copy speaks it). */
  lang: string | null;
  translations: Translations | null;
  /** kind `resume`: the partial's token and personal link, and what the form's page needs. */
  resume_token: string | null;
  resume_invite: string | null;
  access_mode: string;
  access_token: string | null;
  /** Composed when written (a sign-in link, SPEC §26): no form to compose it from. */
  subject: string | null;
  text_body: string | null;
  html_body: string | null;
}

const MAX_ATTEMPTS = 8;
/** 5 s, 10 s, 20 s … capped at an hour. */
export const backoffSeconds = (attempts: number) =>
  Math.min(3600, 5 * 2 ** Math.max(0, attempts - 1));

/**
 * Delivers due outbox emails. Rows are claimed by pushing their next attempt into the future in
 * the same statement that selects them (`for update skip locked` on Postgres), so concurrent
 * drains never send one twice. Without a mailer (embedded), the outbox itself is the mailbox:
 * the composed email is stored and the row marked `kept` (kept, not sent: nothing left the machine).
 */
export async function drainOutbox(
  ctx: AppContext,
  limit = 25,
  /** Checked before each email: true stops the drain (the process is stopping). */
  stopping: () => boolean = () => false,
): Promise<{ sent: number; failed: number }> {
  const lock = ctx.db.kind === "postgres" ? "for update of o skip locked" : "";
  const due = await ctx.db.query<Due>(
    `with claimed as (
       select o.id from outbox o where o.status = 'pending' and o.next_attempt_at <= now()
        order by o.next_attempt_at limit $1 ${lock}
     ), bumped as (
       update outbox o set attempts = o.attempts + 1, next_attempt_at = now() + interval '5 minutes'
         from claimed where o.id = claimed.id
       returning o.id, o.kind, o.milestone, o.recipients, o.attempts, o.form_id, o.response_id,
                  o.digest_key, o.digest_from, o.digest_until, o.invite, o.partial,
                  o.subject, o.text_body, o.html_body
     )
     select b.id, b.kind, b.milestone, b.recipients, b.attempts, f.slug, f.id as form_id, f.definition, b.response_id, r.payload, r.variables, r.submitted_at,
            b.digest_key, b.digest_from, b.digest_until, b.invite,
            (select a.handler from accounts a where a.id = f.account_id) as handler,
             coalesce(r.lang, p.lang) as lang,
             case when b.kind in ('respondent', 'resume') then f.translations end as translations,
             p.token as resume_token, p.invite as resume_invite, f.access_mode, f.access_token,
             b.subject, b.text_body, b.html_body
        from bumped b left join forms f on f.id = b.form_id left join responses r on r.id = b.response_id
        left join partials p on p.id = b.partial
       where f.id is not null or b.kind = 'sign_in'`,
    [limit],
  );
  let sent = 0;
  let failed = 0;
  for (const [i, row] of due.entries()) {
    if (stopping()) {
      // not attempted: due again at once for the next sender, its attempt not counted
      const rest = due.slice(i).map((r) => r.id);
      await retried(() =>
        ctx.db.query(
          "update outbox set next_attempt_at = now(), attempts = attempts - 1 where id = any($1::uuid[])",
          [rest],
        ),
      );
      break;
    }
    let email: { subject: string; text: string; html: string } | null = null;
    try {
      email = await compose(ctx, row);
      const result = ctx.mailer
        ? await ctx.mailer.send({ to: row.recipients, ...email })
        : { id: "outbox" };
      sent++;
      // sent: the record is retried, and a failure here is not the email's (never sent twice)
      const done = email;
      await retried(() =>
        ctx.db.query(
          `update outbox set status = $6, sent_at = now(), subject = $2, text_body = $3, html_body = $4,
             provider_message_id = $5, last_error = null where id = $1`,
          [row.id, done.subject, done.text, done.html, result.id, ctx.mailer ? "sent" : "kept"],
        ),
      ).catch((e) => ctx.log.error(`the sent email ${row.id} could not be recorded`, e));
    } catch (error) {
      const final = row.attempts >= MAX_ATTEMPTS;
      await ctx.db.query(
        `update outbox set status = $2, last_error = $3, subject = $4, text_body = $5, html_body = $6,
           next_attempt_at = now() + make_interval(secs => $7) where id = $1`,
        [
          row.id,
          final ? "failed" : "pending",
          String((error as Error).message ?? error).slice(0, 500),
          email?.subject ?? null,
          email?.text ?? null,
          email?.html ?? null,
          backoffSeconds(row.attempts),
        ],
      );
      failed++;
    }
  }
  return { sent, failed };
}

/** Subject and bodies, with signed links that open in a browser (no API key needed). */
async function compose(ctx: AppContext, row: Due) {
  if (row.kind === "sign_in")
    return { subject: row.subject ?? "", text: row.text_body ?? "", html: row.html_body ?? "" };
  if (row.kind === "digest") return digestEmail(ctx, row);
  if (row.kind === "invite")
    return inviteEmail(
      row.definition,
      inviteUrl(ctx, { handler: row.handler, slug: row.slug }, row.invite!),
    );
  if (row.kind === "resume") {
    // the partial was completed or erased while its link waited: the row went with it
    if (!row.resume_token) throw new Error("the partial response is gone");
    const url = resumeUrl(ctx, {
      ...row,
      locale: row.definition.locale,
      token: row.resume_token,
      invite: row.resume_invite,
    });
    return resumeEmail(row.definition, url, { lang: row.lang, translations: row.translations });
  }
  if (row.kind === "respondent")
    return respondentEmail(
      row.definition,
      row.payload ?? {},
      row.recipients,
      new Date(row.submitted_at ?? Date.now()),
      { lang: row.lang, translations: row.translations },
      row.variables ?? {},
    );
  const report = await viewLink(ctx, { kind: "report", formId: row.form_id, period: "30d" });
  if (row.kind === "milestone")
    return milestoneEmail(row.definition, row.milestone ?? 0, { report });
  const response = row.response_id
    ? await viewLink(ctx, { kind: "response", id: row.response_id })
    : undefined;
  return responseEmail(
    row.definition,
    row.payload ?? {},
    new Date(row.submitted_at ?? Date.now()),
    {
      report,
      ...(response ? { response } : {}),
    },
    row.variables ?? {},
  );
}

/** Digests are looked for once a minute; their rows then drain like every other email. */
const DIGEST_EVERY_MS = 60_000;

/** Enqueues due digests, then delivers due emails: one pass of the sender (and of deno/drain.ts). */
export async function sendDue(ctx: AppContext, limit = 25, stopping?: () => boolean) {
  await enqueueDigests(ctx);
  return drainOutbox(ctx, limit, stopping);
}

/**
 * The in-process sender of the Node server: drains every second, one drain at a time. The stop
 * it returns resolves once the email being sent has been recorded (the rest of its batch goes
 * back to the table, due at once).
 */
export function startOutboxSender(ctx: AppContext, everyMs = 1000): () => Promise<void> {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  let digestsAt = 0;
  const timer = setInterval(() => {
    if (running) return;
    const digests = Date.now() - digestsAt >= DIGEST_EVERY_MS;
    if (digests) digestsAt = Date.now();
    const stopping = () => stopped;
    running = (digests ? sendDue(ctx, 25, stopping) : drainOutbox(ctx, 25, stopping))
      // an unreachable database is logged once by its adapter, not every second here
      .catch((e) => outageKind(e) === null && ctx.log.error("outbox drain failed", e))
      .finally(() => {
        running = null;
      });
  }, everyMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
