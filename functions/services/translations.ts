// A form's translations on the server (SPEC §20): a deploy sends each translation file's text
// with its form (`translations: {<lang>: {content}}`); each is checked against the form as
// `formdown validate` checks it, stored as its strings in `forms.translations`, and written
// beside the form file when the form's own text was written by the same request. An agent may
// send a language's strings instead of its file (`{<lang>: {title, fields, …}}`): they are
// written as that file and checked the same way.
import { raise } from "../../src/core/errors.ts";
import { andMore, ProblemList } from "../../src/core/problem-list.ts";
import type { Form } from "../../src/core/schema.ts";
import { formLanguages, inLanguage, type Translations } from "../../src/core/translation.ts";
import { checkTranslationFile, isLocale } from "../../src/core/translation-file.ts";
import { translationText } from "../../src/core/translation-write.ts";
import type { AppContext } from "../context.ts";

export type { Translations };

/** Language → the translation file's whole text. */
export type TranslationTexts = Record<string, string>;

export const translationPath = (handler: string, slug: string, lang: string) =>
  `forms/@${handler}/${slug}.${lang}.md`;

/**
 * The `translations` of a deploy body as texts, or undefined when the body has none (the stored
 * translations are then kept). Each value is `{content}` (the file), the text itself, or the
 * file's strings as an object (written as the file).
 */
export function translationTexts(input: unknown): TranslationTexts | undefined {
  const given = (input as { translations?: unknown } | null)?.translations;
  if (given === undefined) return undefined;
  if (!isObject(given))
    return raise(
      "invalid_request",
      "translations must be {<lang>: {content: <file text>}} or {<lang>: {title, fields, …}}.",
    );
  const out: TranslationTexts = {};
  for (const [lang, value] of Object.entries(given)) {
    const content = typeof value === "string" ? value : isObject(value) ? value.content : undefined;
    if (typeof content === "string") out[lang] = content;
    else if (isObject(value) && content === undefined) out[lang] = translationText(value);
    else
      raise(
        "invalid_request",
        `translations.${lang} must be {content: <file text>} or the file's strings {title, fields, …}.`,
      );
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The body without its `translations` and the texts it carried (undefined: none). */
export function takeTranslations(input: unknown): {
  input: unknown;
  texts: TranslationTexts | undefined;
} {
  const texts = translationTexts(input);
  if (texts === undefined) return { input, texts };
  const { translations: _, ...rest } = input as Record<string, unknown>;
  return { input: rest, texts };
}

type Detail = { field: string; message: string };

/** One language's text checked against its form: its strings, or what is wrong at file:line. */
function checkOne(
  form: Form,
  handler: string,
  lang: string,
  text: string,
  details: ProblemList<Detail>,
) {
  if (!isLocale(lang)) {
    details.push({ field: `translations.${lang}`, message: `"${lang}" is not a language code` });
    return undefined;
  }
  const file = translationPath(handler, form.slug, lang);
  const { errors, more, translation } = checkTranslationFile(form, text, file);
  for (const e of errors)
    details.push({
      field: e.path ? `translations.${lang}.${e.path}` : `translations.${lang}`,
      message: `${e.file}:${e.line}: ${e.message}`,
    });
  details.count(more.errors);
  return translation;
}

/** 400 naming at most 100 problems, with a count of the rest. */
const invalid = (details: ProblemList<Detail>) =>
  raise(
    "validation_failed",
    details.more > 0
      ? `The form's translations have ${details.total.toLocaleString("en-US")} problems (${details.items.length} listed, ${andMore(details.more)}).`
      : "The form's translations are not valid.",
    { details: details.items },
  );

/** One translation file checked against its form (deploy_form `{slug, lang, content}`). */
export function checkedTranslation(form: Form, handler: string, lang: string, text: string) {
  const details = new ProblemList<Detail>();
  const out = checkOne(form, handler, lang, text, details);
  return out ?? invalid(details);
}

/**
 * Each text checked against its form (a key naming nothing, a language the form does not list)
 * and every listed language present; the strings, or 400 naming each problem at file:line.
 */
export function checkedTranslations(
  form: Form,
  handler: string,
  texts: TranslationTexts,
): Translations {
  const details = new ProblemList<Detail>();
  const out: Translations = {};
  for (const [lang, text] of Object.entries(texts)) {
    const strings = checkOne(form, handler, lang, text, details);
    if (strings) out[lang] = strings;
  }
  for (const lang of form.languages ?? [])
    if (!Object.hasOwn(texts, lang))
      details.push({
        field: `translations.${lang}`,
        message: `"${lang}" is in languages but has no translation (${translationPath(handler, form.slug, lang)})`,
      });
  if (details.total > 0) invalid(details);
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
