// One translation file at a time (SPEC §20): get_form_file and deploy_form with `lang`, and the
// translations create_form and update_form take beside a form. The form itself never changes
// here; its languages' strings are checked against it, stored with it and written beside it.
import { raise } from "../../src/core/errors.ts";
import type { Plan } from "../../src/core/plan/plan.ts";
import type { Form } from "../../src/core/schema.ts";
import type { Translations } from "../../src/core/translation.ts";
import { translationText } from "../../src/core/translation-write.ts";
import type { AppContext } from "../context.ts";
import type { Account } from "./accounts.ts";
import { type FormRow, ownedForm, ownedFormHead, publicUrl } from "./form-view.ts";
import {
  checkedTranslation,
  checkedTranslations,
  storeTranslations,
  type TranslationTexts,
  translationPath,
  writeTranslationFiles,
} from "./translations.ts";
import { planFor } from "./versions/guard.ts";

/** A language the form lists, or 400 naming the ones it does. */
function listed(form: Form, lang: string): string {
  const all = form.languages ?? [];
  if (!(all as string[]).includes(lang))
    raise(
      "invalid_param",
      all.length === 0
        ? `The form ${form.slug} has no other languages (add lang to its languages first).`
        : `lang must be one of this form's languages: ${all.join(", ")}.`,
    );
  return lang;
}

/** The text of a language's file: the repository's, else its stored strings written out. */
async function currentText(
  ctx: AppContext,
  handler: string,
  row: Pick<FormRow, "slug" | "translations">,
  lang: string,
): Promise<string | null> {
  const text = await ctx.repo.read(translationPath(handler, row.slug, lang));
  if (text !== null) return text;
  const stored = row.translations?.[lang];
  return stored ? translationText(stored as Record<string, unknown>) : null;
}

/** get_form_file `{slug, lang}`: the translation file of one of the form's languages. */
export async function readTranslationFile(
  ctx: AppContext,
  account: Account,
  slug: string,
  lang: string,
) {
  const row = await ownedFormHead(ctx, account, slug);
  listed(row.definition, lang);
  const path = translationPath(account.handler, slug, lang);
  const content = await currentText(ctx, account.handler, row, lang);
  if (content === null) return raise("not_found", `The form ${slug} has no file ${path}.`);
  return { slug, lang, path, content };
}

/**
 * deploy_form `{slug, lang, content}`: one translation file, checked against the live form as
 * `formdown validate` checks it, written beside the form and stored; the form stays as it is.
 */
export async function deployTranslationFile(
  ctx: AppContext,
  account: Account,
  slug: string,
  lang: string,
  content: string,
  options: { dryRun?: boolean | undefined } = {},
): Promise<
  | { plan: Plan }
  | {
      result: "created" | "updated" | "unchanged";
      form_id: string;
      slug: string;
      path: string;
      public_url: string;
    }
> {
  const row = await ownedForm(ctx, account, slug);
  const strings = checkedTranslation(row.definition, account.handler, lang, content);
  const translations: Translations = { ...spokenTranslations(row), [lang]: strings };
  const plan = await planFor(ctx, row, row.definition, translations);
  if (options.dryRun) return { plan };
  const path = translationPath(account.handler, slug, lang);
  const before = await ctx.repo.read(path);
  await writeTranslationFiles(ctx, account.handler, slug, { [lang]: content });
  const stored = await storeTranslations(ctx, row, translations);
  const result = !row.translations?.[lang]
    ? "created"
    : stored || before !== content
      ? "updated"
      : "unchanged";
  return { result, form_id: row.id, slug, path, public_url: `${publicUrl(ctx, row)}/${lang}` };
}

/** The stored translations of the languages the form still lists. */
const spokenTranslations = (row: Pick<FormRow, "definition" | "translations">): Translations =>
  Object.fromEntries(
    Object.entries(row.translations ?? {}).filter(([l]) =>
      (row.definition.languages ?? []).includes(l as never),
    ),
  );

/**
 * update_form / PATCH `translations` (SPEC §20): like the patch's other objects, the languages
 * given replace theirs and the others stay as they are; checked against the patched form.
 */
export async function patchedTranslations(
  ctx: AppContext,
  handler: string,
  row: Pick<FormRow, "slug" | "translations">,
  form: Form,
  given: TranslationTexts,
): Promise<Translations> {
  const texts: TranslationTexts = {};
  for (const lang of form.languages ?? []) {
    const text = Object.hasOwn(given, lang)
      ? given[lang]!
      : await currentText(ctx, handler, row, lang);
    if (text !== null) texts[lang] = text;
  }
  for (const lang of Object.keys(given)) texts[lang] = given[lang]!;
  return checkedTranslations(form, handler, texts);
}

/** Writes the texts given and stores the checked strings (create_form, update_form). */
export async function saveTranslations(
  ctx: AppContext,
  handler: string,
  form: { id: string; slug: string },
  texts: TranslationTexts,
  translations: Translations,
  write: boolean,
): Promise<boolean> {
  if (write) await writeTranslationFiles(ctx, handler, form.slug, texts);
  return storeTranslations(ctx, form, translations);
}
