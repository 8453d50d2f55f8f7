import { raise } from "../../src/core/errors.ts";
import { ignoredAnswers } from "../../src/core/ignored-answers.ts";
import { scoreQuiz } from "../../src/core/score.ts";
import type { AppContext } from "../context.ts";
import { clientDeadlineMs } from "../db/db.ts";
import { outageKind } from "../db/outage.ts";
import { clientBucket } from "../http/client-address.ts";
import { respondentRecipients } from "../mail/respondent-recipients.ts";
import { handOver, wakeWebhookSender } from "../webhooks/handover.ts";
import { formStatus } from "./form-view.ts";
import { firstResponse, requestHash } from "./idempotency.ts";
import { checkInvite, explainInvite } from "./invite-check.ts";
import { resumedPartial } from "./partials.ts";
import { hit } from "./rate-limit.ts";
import { checkAccess, checkAntiBot, needsAntiBot } from "./respondent-access.ts";
import { responseId } from "./response-id.ts";
import { checkedAnswers, storedEnding, submitAnswer } from "./submit-answer.ts";
import { spokenAnswers } from "./submit-lang.ts";
import { type SubmitRow, submitRow } from "./submit-row.ts";
import type { SubmitWrite } from "./submit-sql.ts";
import { testAnswer } from "./submit-test.ts";
import { checkUploads, uploadUrls } from "./submit-uploads.ts";
import { type Inserted, writeResponse } from "./submit-write.ts";
import { answeringVersion } from "./versions/submit-version.ts";

export interface SubmitInput {
  body: Record<string, unknown>;
  ip: string | undefined;
  idempotencyKey: string | undefined;
  /** The account of the API key the submit was sent with, if any: its owner sends test answers. */
  accountId?: string | undefined;
  /** A page built from files: the commit it was built at (form-address.ts). */
  built?: string | undefined;
}

async function existing(ctx: AppContext, row: SubmitRow, key: string, hash: string) {
  const hit = await firstResponse(ctx, row.id, key, hash);
  if (!hit) return null;
  const ending = await storedEnding(row.definition, hit.payload);
  return submitAnswer(row.definition, hit.id, hit.score, hit.payload, ending);
}

/** Seconds since the respondent started, as the page counted them; null when implausible. */
export function plausibleSeconds(value: unknown): number | null {
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) return null;
  // a month: longer is a clock gone wrong, not a respondent
  return value > 2_592_000 ? null : Math.round(value);
}

/** Accepts a public submission (SPEC §5): one SQL statement once every check has passed. */
export async function submit(ctx: AppContext, slug: string, input: SubmitInput) {
  try {
    return await submitTo(ctx, slug, input);
  } catch (error) {
    if (!(error instanceof FormReplaced)) throw error;
    return submitTo(ctx, slug, input);
  }
}

/** The form was deleted and its slug taken by a new one while an instance still had it cached. */
class FormReplaced extends Error {}

async function submitTo(ctx: AppContext, slug: string, input: SubmitInput) {
  // first, in memory: a refused submit reads and writes nothing (slugs are unique, so the slug
  // names the form as well as its id would, and is known before any lookup)
  hit(ctx, `submit:${slug}:${clientBucket(input.ip)}`, ctx.config.rateSubmit);
  const within = clientDeadlineMs(ctx.config.dbStatementTimeout);
  const answerBy = within > 0 ? Date.now() + within : Number.POSITIVE_INFINITY;
  const row = await submitRow(ctx, slug, answerBy, input.built);
  if (!row) return raise("not_found", `No form with the slug "${slug}".`);
  const test = testAnswer(row, input);
  // the owner's own key (test or, with `test: false`, real): the key proves who sends it, so no
  // anti-bot token or password is asked (an agent never turns anti-bot off to collect answers)
  const owner = input.accountId !== undefined;
  if (!test) {
    if (row.draft)
      raise(
        "form_closed",
        "This form is a draft: it takes test answers only (its preview page or the owner's key).",
      );
    if (formStatus(row) === "closed")
      raise("form_closed", "This form is closed and no longer accepts responses.");
  } else if (test === "preview" && row.access_mode === "closed") {
    // a preview obeys the form's access mode (SPEC §23); its token is a link of its own
    raise("form_closed", "This form is closed and no longer accepts responses.");
  }
  // a password the preview page's respondent must know as any respondent would
  const guarded = !test || (test === "preview" && row.access_mode === "password");
  const { version, definition: form } = await answeringVersion(ctx, row, input.body.version, () => {
    ctx.formCache.forget(row.slug);
    return submitRow(ctx, slug, answerBy, input.built);
  });
  // translated option labels back to the form's own (SPEC §20), before anything reads the answers
  const { lang, fields } = spokenAnswers(form, row.translations, input.body);
  input = { ...input, body: { ...input.body, fields } };
  const key = input.idempotencyKey?.slice(0, 200);
  const hash = key ? await requestHash(input.body) : null;
  if (key) {
    // a retry of a stored request (its anti-bot token already spent): answer it as before
    const first = await existing(ctx, row, key, hash!);
    if (first) {
      if (guarded && !owner) await checkAccess(ctx, row.slug, row, input.body.access, input.ip);
      // a retried test answer says so again, like its first answer did
      return test ? { ...first, test: true } : first;
    }
  }
  // the live form's checks, whatever version the answers were given against (SPEC §23); secrets
  // after the anti-bot check, so a password guess costs a proof of work (SPEC §19)
  const live = row.definition;
  if (test ? guarded : !owner) {
    if (test || needsAntiBot(row)) await checkAntiBot(ctx, input.body.turnstile_token, input.ip);
    await checkAccess(ctx, row.slug, row, input.body.access, input.ip);
  }
  // a personal link (SPEC §25): needed in invite mode, spent by the statement below
  const invite = test ? null : await checkInvite(ctx, row, input.body.invite);
  // the partial this submit completes (SPEC §25): the response takes its id, and it goes
  const resumed =
    !test && live.settings.partial ? await resumedPartial(ctx, row.id, input.body.resume) : null;
  // the answers along the respondent's path; its ending and variables are the server's own
  const { payload, ending, recorded } = await checkedAnswers(
    form,
    input.body.fields,
    input.body.hidden,
  );
  const urls = uploadUrls(form, payload);
  if (urls.length > 0) await checkUploads(ctx, row, form, payload, urls);
  const score = scoreQuiz(form, payload);
  const { strategy, email } = live.notifications;
  const through = row.emailsThrough ?? 0;
  const milestones = row.milestones.filter((m) => m > through);
  // a test answer is flagged, numbered 0 and sends nothing: no email, no webhook (SPEC §16)
  const emailDue =
    !test && email.length > 0 && (strategy.immediate_count > through || milestones.length > 0);
  const hooks = test ? [] : row.hooks;
  const write: SubmitWrite = {
    row: {
      id: resumed?.id ?? responseId(),
      form_id: row.id,
      payload: JSON.stringify(payload),
      score: score ? JSON.stringify(score) : null,
      ...recorded,
      commit_sha: row.commit_sha,
      seconds: plausibleSeconds(input.body.seconds),
      version,
      lang,
      idempotency_key: key ?? null,
      idempotency_hash: hash,
      test: test ? true : null,
      invite: invite?.token ?? null,
      invite_email: invite?.email ?? null,
    },
    sequence: row.sequence,
    hooks,
    answerBy,
    maxResponses: test ? null : (live.settings.max_responses ?? null),
    outbox: emailDue
      ? { recipients: JSON.stringify(email), immediate: strategy.immediate_count, milestones }
      : null,
    respondent: test ? null : respondentRecipients(form, payload),
    uploads: urls,
    partial: resumed?.token ?? null,
  };
  let inserted: Inserted | undefined;
  const sentAt = Date.now();
  try {
    inserted = await writeResponse(ctx, write);
  } catch (error) {
    // the same Idempotency-Key raced us: the first one won, answer with it
    if (key && (error as { code?: string }).code === "23505") {
      const first = await existing(ctx, row, key, hash!);
      if (first) return test ? { ...first, test: true } : first;
    }
    // the same invite raced us (the unique index on form and invite): the first one won
    if ((invite || resumed) && (error as { code?: string }).code === "23505")
      raise(
        "already_answered",
        invite
          ? "This invite link has already been answered."
          : "This partial response has already been completed.",
      );
    // the database is out of reach: nothing to learn from asking it again about the form
    if (outageKind(error) !== null) throw error;
    // a form deleted since its row was read has no sequence left (migration 000400)
    ctx.formCache.forget(row.slug);
    const now = await submitRow(ctx, slug, answerBy, input.built);
    if (!now) raise("not_found", `No form with the slug "${slug}".`);
    if (now!.id !== row.id) throw new FormReplaced();
    throw error;
  }
  if (!inserted?.id) {
    // the statement found the invite spent, revoked or expired since it was checked
    if (invite) await explainInvite(ctx, row.id, invite.token);
    raise("form_closed", "This form has reached its maximum number of responses.");
  }
  if (inserted!.leased)
    await handOver(
      ctx,
      inserted!.leased,
      {
        id: inserted!.id,
        payload,
        score,
        commit_sha: row.commit_sha,
        // what the statement stored beside the payload (SPEC §24), as the body carries it
        ending: recorded.ending ?? null,
        variables: recorded.variables ? JSON.parse(recorded.variables) : null,
      },
      sentAt,
    );
  else if (hooks.length > 0) wakeWebhookSender(ctx, hooks);
  // n: the response's number among stored ones (the counting statement answers it)
  if (emailDue) row.emailsThrough = Math.max(row.emailsThrough ?? 0, inserted!.n ?? 0);
  // answers not stored (a field hidden by show_if) are named, not dropped silently (SPEC §18)
  const ignored = ignoredAnswers(form.fields, input.body.fields, payload);
  return {
    ...submitAnswer(form, inserted!.id, score, payload, ending),
    ...(test ? { test: true } : {}),
    ...(ignored.length ? { ignored } : {}),
  };
}
