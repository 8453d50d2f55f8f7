// A form's translations on the server (SPEC §20): a deploy sends each translation file's text
// with its form (`translations: {<lang>: {content}}`); each is checked against the form as
// `formdown validate` checks it, stored as its strings in `forms.translations`, and written
// beside the form file when the form's own text was written by the same request.
import { raise } from "../../src/core/errors.ts";
import type { Form } from "../../src/core/schema.ts";
import { formLanguages, inLanguage, type Translations } from "../../src/core/translation.ts";
import { checkTranslationFile, parseTranslationFile } from "../../src/core/translation-file.ts";
import type { AppContext } from "../context.ts";

export type { Translations };

/** Language → the translation file's whole text. */
export type TranslationTexts = Record<string, string>;

export const translationPath = (handler: string, slug: string, lang: string) =>
  `forms/@${handler}/${slug}.${lang}.md`;

/**
 * The `translations` of a deploy body as texts, or undefined when the body has none (the stored
 * translations are then kept). Each value is `{content}` or the text itself.
 */
export function translationTexts(input: unknown): TranslationTexts | undefined {
  const given = (input as { translations?: unknown } | null)?.translations;
  if (given === undefined) return undefined;
  if (typeof given !== "object" || given === null || Array.isArray(given))
    return raise("invalid_request", "translations must be {<lang>: {content: <file text>}}.");
  const out: TranslationTexts = {};
  for (const [lang, value] of Object.entries(given)) {
    const content = typeof value === "string" ? value : (value as { content?: unknown })?.content;
    if (typeof content !== "string")
      raise("invalid_request", `translations.${lang} must be {content: <file text>}.`);
    out[lang] = content as string;
  }
  return out;
}

/**
 * Each text checked against its form (a key naming nothing, a language the form does not list)
 * and every listed language present; the strings, or 422 naming each problem at file:line.
 */
export function checkedTranslations(
  form: Form,
  handler: string,
  texts: TranslationTexts,
): Translations {
  const details: { field: string; message: string }[] = [];
  const out: Translations = {};
  for (const [lang, text] of Object.entries(texts)) {
    const file = translationPath(handler, form.slug, lang);
    const { errors } = checkTranslationFile(form, text, file);
    for (const e of errors)
      details.push({ field: `translations.${lang}`, message: `${e.file}:${e.line}: ${e.message}` });
    const parsed = parseTranslationFile(text, file);
    if (parsed.ok && errors.length === 0) out[lang] = parsed.translation;
  }
  for (const lang of form.languages ?? [])
    if (!Object.hasOwn(texts, lang))
      details.push({
        field: `translations.${lang}`,
        message: `"${lang}" is in languages but has no translation (${translationPath(handler, form.slug, lang)})`,
      });
  if (details.length > 0)
    raise("validation_failed", "The form's translations are not valid.", { details });
  return out;
}

/** Stores a form's translations (all of them: a language left out is dropped). */
export async function storeTranslations(
  ctx: AppContext,
  form: { id: string; slug: string },
  translations: Translations,
): Promise<boolean> {
  const rows = await ctx.db.query<{ id: string }>(
    `update forms set translations = $2::jsonb
      where id = $1 and translations is distinct from $2::jsonb returning id`,
    [form.id, JSON.stringify(translations)],
  );
  // a submit maps translated labels with the cached row's translations
  if (rows.length > 0) ctx.formCache.forget(form.slug);
  return rows.length > 0;
}

/** Writes the translation files beside the form's file, each only when its text changed. */
export async function writeTranslationFiles(
  ctx: AppContext,
  handler: string,
  slug: string,
  texts: TranslationTexts,
): Promise<void> {
  for (const [lang, text] of Object.entries(texts)) {
    const path = translationPath(handler, slug, lang);
    if ((await ctx.repo.read(path)) === text) continue;
    await ctx.repo.write(path, text, `Deploy translation ${slug}.${lang}`);
  }
}

/** The translation files of a form's listed languages in the repository (a missing one left out). */
export async function repositoryTranslations(
  ctx: AppContext,
  handler: string,
  form: Form,
): Promise<TranslationTexts> {
  const out: TranslationTexts = {};
  for (const lang of form.languages ?? []) {
    const text = await ctx.repo.read(translationPath(handler, form.slug, lang));
    if (text !== null) out[lang] = text;
  }
  return out;
}

/**
 * `get_form {slug, lang}` (SPEC §20): the definition in that language — its texts translated, its
 * options and columns still the form's own values, with `choices` the labels to show for them —
 * and the form's languages. Nothing for a form in one language asked without `lang`.
 */
export function formInLanguage(
  row: { definition: Form; translations: Translations },
  lang: string | undefined,
) {
  const all = formLanguages(row.definition, row.translations);
  if (lang !== undefined && !all.includes(lang))
    raise("invalid_param", `lang must be one of this form's languages: ${all.join(", ")}.`);
  if (all.length < 2 && lang === undefined) return {};
  const shown = lang ?? row.definition.locale;
  const { form, choices } = inLanguage(row.definition, shown, row.translations);
  return {
    lang: shown,
    languages: all,
    ...(shown === row.definition.locale ? {} : { config: form, choices }),
  };
}
