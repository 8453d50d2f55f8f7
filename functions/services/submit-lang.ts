// The language of a submit (SPEC §20): answers are stored in the form's own terms whatever language
// the respondent read, and the response records that language. A page sends `lang` and the form's
// own options already; an API client may send the labels of the translation it read instead.
import { raise } from "../../src/core/errors.ts";
import type { Form } from "../../src/core/schema.ts";
import { formLanguages, type Translations, toFormTerms } from "../../src/core/translation.ts";

/**
 * The submit's language (`lang`, default the form's own) and its answers with translated option
 * and column labels mapped back to the form's. Without `lang`, a label of any of the form's
 * translations is mapped (the form's own options always win).
 */
export function spokenAnswers(
  form: Form,
  translations: Translations | null | undefined,
  body: Record<string, unknown>,
): { lang: string; fields: unknown } {
  const all = formLanguages(form, translations);
  const given = body.lang;
  if (given !== undefined && (typeof given !== "string" || !all.includes(given)))
    raise("validation_failed", `lang must be one of this form's languages: ${all.join(", ")}.`, {
      details: [{ field: "lang", message: `must be one of: ${all.join(", ")}` }],
    });
  const lang = (given as string | undefined) ?? form.locale;
  const fields = body.fields;
  if (typeof fields !== "object" || fields === null || Array.isArray(fields) || !translations)
    return { lang, fields };
  const tried = given === undefined ? all.slice(1) : lang === form.locale ? [] : [lang];
  let answers = fields as Record<string, unknown>;
  for (const l of tried) answers = toFormTerms(form, translations[l]!, answers);
  return { lang, fields: answers };
}
