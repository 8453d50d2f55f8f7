// The form as a submit reads it: one row by the page's name for it (its id, or a slug:
// form-address.ts), kept for two seconds in the form cache, with what every submit would
// otherwise work out again.
import type { Form } from "../../src/core/schema.ts";
import type { AppContext } from "../context.ts";
import { FORM_AT, formAtParams } from "./form-address.ts";
import type { FormRow } from "./form-view.ts";
import { formSequence } from "./submit-sql.ts";

/** The response counts at which a milestone email is due (absolute and % of target). */
export function milestoneCounts(form: Form): number[] {
  const { target, milestones } = form.notifications.strategy;
  const counts = new Set(milestones.absolute);
  if (target) for (const p of milestones.percentage) counts.add(Math.ceil((p / 100) * target));
  return [...counts].sort((a, b) => a - b);
}

type Access = "access_mode" | "access_token" | "access_password_hash";
export type SubmitRow = Pick<
  FormRow,
  | "id"
  | "slug"
  | "account_id"
  | "definition"
  | "commit_sha"
  | "version"
  | "draft"
  | "preview_token"
  | "translations"
  | Access
> & {
  /**
   * Every email due up to this response count is in the outbox (a submit that wrote the outbox
   * part committed with it). Counts only grow while the row is cached, so a later submit need not ask again: with no
   * milestone above it and the immediate emails behind it, the submit is a bare INSERT. Lives as
   * long as the cached row (2 s), so a new definition starts from 0 again.
   */
  emailsThrough?: number;
  /** Worked out once per cached row rather than on every submit. */
  sequence: string;
  /**
   * The form's webhooks for `response.created` (the submit writes a delivery for each, or on
   * PGlite hands one over without a row; the sender takes them at once only while it has room). Read with the row, so a form without webhooks
   * pays nothing; creating or deleting a webhook forgets the row here at once, and another
   * instance sees the change within the cache's TTL.
   */
  hooks: string[];
  milestones: number[];
};

const SUBMIT_ROW = `select id, slug, account_id, definition, access_mode, access_token,
       access_password_hash, commit_sha, version, draft, preview_token, translations,
       (select coalesce(json_agg(w.id), '[]') from webhooks w
         where w.form_id = forms.id and 'response.created' = any(w.events)) as hooks
       from forms`;

/**
 * Only what a submit needs, without the join (the hot path reads one row by its unique id or
 * slug). `at` is the path's slug or id, `built` the commit a page built from files was built at:
 * a page built before a rename reaches the renamed form (SPEC §22, form-address.ts).
 */
export async function submitRow(ctx: AppContext, at: string, answerBy: number, built?: string) {
  const key = built ? `${at}\n${built}` : at;
  const cached = ctx.formCache.get(key) as SubmitRow | undefined;
  if (cached) return cached;
  type Found = Omit<SubmitRow, "sequence" | "milestones">;
  const [found] = await ctx.db.query<Found>(
    `${SUBMIT_ROW} where id = ${FORM_AT}`,
    formAtParams(at, built),
    { prepare: true, answerBy },
  );
  if (!found) return null;
  const row = {
    ...found,
    sequence: formSequence(found.id),
    milestones: milestoneCounts(found.definition),
  };
  ctx.formCache.set(key, row);
  return row;
}
