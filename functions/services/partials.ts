// Partial responses (SPEC §25): with `settings.partial: true` the page saves a respondent's
// answers page by page under a secret resume token (table partials, migration …014519), apart
// from the responses: counts, exports, emails and webhooks never read them. Reopening the page or
// the link continues from them; the completing submit (`resume` in its body) stores the response
// under the partial's id and deletes the partial in the same statement (submit-sql.ts).
import { raise } from "../../src/core/errors.ts";
import { formLanguages } from "../../src/core/translation.ts";
import type { AppContext } from "../context.ts";
import { randomToken } from "../crypto.ts";
import { inBatches } from "../db/prune.ts";
import { clientBucket } from "../http/client-address.ts";
import { findPublicForm, formStatus } from "./form-view.ts";
import { checkInvite } from "./invite-check.ts";
import { hit } from "./rate-limit.ts";
import { checkAccess, checkAntiBot } from "./respondent-access.ts";
import { responseId } from "./response-id.ts";

/** A partial's answers: at most this many bytes of JSON. */
const MAX_PARTIAL = 64 * 1024;
export const PARTIAL_DAYS = 30;
/** The largest page a partial records (`partials.page` is a Postgres integer). */
const MAX_PAGE = 2_147_483_647;

async function partialForm(ctx: AppContext, slug: string, built: string | undefined) {
  const row = await findPublicForm(ctx, slug, built);
  if (!row || row.draft) return raise("not_found", `No form with the slug "${slug}".`);
  if (!row.definition.settings.partial)
    raise("not_found", "This form does not save partial responses.");
  if (formStatus(row) === "closed")
    raise("form_closed", "This form is closed and no longer accepts responses.");
  return row;
}

/**
 * Saves (or updates, with its token) a respondent's answers so far; answers the resume token.
 * An invite-only form's partial needs an unspent personal link (not spent here: the completing
 * submit spends it). The first save that names an email address queues the resume link by email.
 */
export async function savePartial(
  ctx: AppContext,
  slug: string,
  body: Record<string, unknown>,
  ip: string | undefined,
  /** A page built from files: the commit it was built at (form-address.ts). */
  built?: string,
) {
  hit(ctx, `submit:${slug}:${clientBucket(ip)}`, ctx.config.rateSubmit);
  const row = await partialForm(ctx, slug, built);
  // a password is tried only with an anti-bot token, as on every other path (SPEC §23): the
  // page sends one with each save of a password form
  if (row.access_mode === "password") await checkAntiBot(ctx, body.turnstile_token, ip);
  await checkAccess(ctx, row.slug, row, body.access, ip);
  const invite = await checkInvite(ctx, row, row.access_mode === "invite" ? body.invite : null);
  const fields = body.fields;
  if (typeof fields !== "object" || fields === null || Array.isArray(fields))
    raise("validation_failed", "fields must be an object of answers.", {
      details: [{ field: "fields", message: "must be an object" }],
    });
  // only the form's own questions are kept
  const ids = new Set(row.definition.fields.map((f) => f.id));
  const kept = Object.fromEntries(
    Object.entries(fields as Record<string, unknown>).filter(([id]) => ids.has(id)),
  );
  const payload = JSON.stringify(kept);
  if (payload.length > MAX_PARTIAL)
    raise("payload_too_large", `A partial response is at most ${MAX_PARTIAL} bytes.`);
  // the page it was on, as the table's integer holds it (99999999999 was a 500, SPEC §19)
  const page =
    Number.isInteger(body.page) && (body.page as number) >= 0 && (body.page as number) <= MAX_PAGE
      ? (body.page as number)
      : null;
  // the page's language, one of the form's (its resume link opens that page)
  const lang =
    typeof body.lang === "string" &&
    formLanguages(row.definition, row.translations).includes(body.lang)
      ? body.lang
      : null;
  const given = typeof body.resume === "string" && body.resume.length <= 100 ? body.resume : null;
  const saved = await store(ctx, row.id, given, body.claim === true, {
    payload,
    page,
    lang,
    invite: invite?.token ?? null,
  });
  // the resume link by email is loaded with the first save (the edge function's cold start skips it)
  const link = await import("./resume-link.ts");
  const address = link.resumeAddress(row.definition, kept);
  if (address) await link.queueResumeLink(ctx, row.id, saved.id, address);
  return saved;
}

/**
 * Updates the partial `given` names, or stores a new one. `claim`: the page was opened with
 * `given` in its address (a resume link) and this is its first save, so the partial moves to a
 * new token and the link's stops working: a stranger who makes a partial and hands its link to
 * someone else would otherwise read their answers page by page with it.
 */
async function store(
  ctx: AppContext,
  formId: string,
  given: string | null,
  claim: boolean,
  p: { payload: string; page: number | null; lang: string | null; invite: string | null },
): Promise<{ resume: string; id: string }> {
  if (given) {
    const token = claim ? randomToken(18) : given;
    // a claim also drops the partial's resume email not yet sent: composed when it goes, it
    // would carry the new token to the address the link's maker named
    const [updated] = await ctx.db.query<{ id: string }>(
      `with moved as (
         update partials set payload = $3::jsonb, page = $4, lang = coalesce($5, lang),
                invite = coalesce($6, invite), updated_at = now(), token = $7
          where form_id = $1 and token = $2 returning id),
       unsent as (
         delete from outbox o using moved where $8 and o.partial = moved.id
            and o.kind = 'resume' and o.status = 'pending')
       select id from moved`,
      [formId, given, p.payload, p.page, p.lang, p.invite, token, claim],
    );
    if (updated) return { resume: token, id: updated.id };
  }
  const token = randomToken(18);
  const id = responseId();
  await ctx.db.query(
    "insert into partials (id, form_id, token, payload, page, lang, invite) values ($1, $2, $3, $4::jsonb, $5, $6, $7)",
    [id, formId, token, p.payload, p.page, p.lang, p.invite],
  );
  return { resume: token, id };
}

/** A partial's answers, to continue where the respondent left off. */
export async function loadPartial(ctx: AppContext, slug: string, token: string, built?: string) {
  const row = await partialForm(ctx, slug, built);
  const [p] = await ctx.db.query<{ payload: Record<string, unknown>; page: number | null }>(
    "select payload, page from partials where form_id = $1 and token = $2",
    [row.id, token],
  );
  if (!p) raise("not_found", "No such partial response (it was completed or has expired).");
  return { fields: p!.payload, page: p!.page };
}

/** The partial a completing submit names: its id becomes the response's. */
export async function resumedPartial(ctx: AppContext, formId: string, token: unknown) {
  if (typeof token !== "string" || token.length > 100) return null;
  const [p] = await ctx.db.query<{ id: string }>(
    "select id from partials where form_id = $1 and token = $2",
    [formId, token],
  );
  return p ? { id: p.id, token } : null;
}

/** Partials deleted by one statement of the daily purge. */
const PURGE_BATCH = 5000;

/**
 * Partials left unfinished past their form's partial_days (default 30), a batch at a time, each
 * in a turn of the event loop of its own (one statement for all held PGlite's loop with them).
 */
export async function purgePartials(ctx: AppContext): Promise<number> {
  return inBatches(PURGE_BATCH, async () => {
    const [row] = await ctx.db.query<{ n: number }>(
      `with gone as (delete from partials where id = any(array(
         select p.id from partials p join forms f on f.id = p.form_id
          where p.updated_at < now() - make_interval(days => coalesce((f.definition -> 'settings' ->> 'partial_days')::int, $1))
          limit $2)) returning 1)
       select count(*)::int as n from gone`,
      [PARTIAL_DAYS, PURGE_BATCH],
    );
    return row?.n ?? 0;
  });
}
