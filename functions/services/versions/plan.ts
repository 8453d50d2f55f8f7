import { raise, unwrap } from "../../../src/core/errors.ts";
import type { Plan } from "../../../src/core/plan/plan.ts";
import type { Form } from "../../../src/core/schema.ts";
import { validateForm } from "../../../src/core/validate-form.ts";
import type { AppContext } from "../../context.ts";
import type { Account } from "../accounts.ts";
import { withSlug } from "../deploy.ts";
import { parsedFormFile } from "../form-files.ts";
import { type FormRow, findForm } from "../form-view.ts";
import { mergePatch } from "../merge-patch.ts";
import { patchedTranslations } from "../translation-files.ts";
import { checkedTranslations, takeTranslations } from "../translations.ts";
import { planFor } from "./guard.ts";

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The definition a plan request names: `{content}` or `{markdown}` (a form file), a whole
 * definition (it states `slug`), or what a PATCH would take, merged into the live one.
 */
export function requestedDefinition(
  slug: string,
  row: FormRow | null,
  body: unknown,
  patch = false,
): Form {
  if (!isObj(body)) return raise("invalid_request", "The body must be a JSON object.");
  const text = patch ? undefined : (body.content ?? body.markdown);
  if (typeof text === "string") return parsedFormFile(withSlug(text, slug), `forms/${slug}.md`);
  // a whole definition states its slug (a patch cannot change it); a new form takes only that
  if (!row || (!patch && body.slug !== undefined)) return unwrap(validateForm(body));
  return unwrap(validateForm(mergePatch(row.definition, body)));
}

/**
 * POST /api/forms/{slug}/plan, PATCH/PUT `?dry_run=true`: the plan, changing nothing. With
 * `translations` (what deploy sends beside the form; a patch's languages replace theirs), the plan
 * lists each language added, changed or removed, checked as the deploy would check them.
 */
export async function planRequest(
  ctx: AppContext,
  account: Account,
  slug: string,
  body: unknown,
  options: { patch?: boolean } = {},
): Promise<Plan> {
  const row = await findForm(ctx, slug);
  if (row && row.account_id !== account.id)
    raise("forbidden", "This form belongs to another account.");
  if (!row && options.patch) raise("not_found", `No form with the slug "${slug}".`);
  const { input, texts } = takeTranslations(body);
  const next = requestedDefinition(slug, row, input, options.patch);
  if (next.slug !== slug)
    raise("invalid_request", `The definition's slug "${next.slug}" does not match "${slug}".`);
  const translations =
    texts === undefined
      ? undefined
      : options.patch && row
        ? await patchedTranslations(ctx, account.handler, row, next, texts)
        : checkedTranslations(next, account.handler, texts);
  return planFor(ctx, row, next, translations);
}
