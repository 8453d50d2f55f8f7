// A form in another language (SPEC §20). Only what a respondent reads is translated: the form's
// options and matrix columns stay its own values everywhere (answers, show_if, scoring, exports),
// and the page shows each through `choices`. Piping placeholders are text like any other.
import { optionValue } from "./options.ts";
import type { Form } from "./schema.ts";
import type { FieldTranslation, Translation } from "./translation-schema.ts";

/** A path in a translation file's terms: `["fields", "role", "options", "Design"]`. */
export type StringPath = readonly string[];

/** One string a form has, at the path its translation is written under. */
export interface FormString {
  path: StringPath;
  text: string;
}

const FIELD_TEXTS = [
  "label",
  "description",
  "placeholder",
  "low_label",
  "high_label",
  "explanation",
] as const;

const has = (v: unknown): v is string => typeof v === "string" && v.trim() !== "";

/** Every string of the form a translation may (and should) carry, in the form's order. */
export function formStrings(form: Form): FormString[] {
  const out: FormString[] = [];
  const add = (path: StringPath, text: unknown) => {
    if (has(text)) out.push({ path, text });
  };
  add(["title"], form.title);
  add(["body"], form.body);
  for (const field of form.fields) {
    const f = field as Record<string, unknown>;
    const at = ["fields", field.id];
    for (const key of FIELD_TEXTS) add([...at, key], f[key]);
    if ("options" in field)
      for (const o of field.options) add([...at, "options", optionValue(o)], optionValue(o));
    if (field.type === "matrix") {
      for (const row of field.rows) add([...at, "rows", row.id], row.label);
      for (const column of field.columns) add([...at, "columns", column], column);
    }
  }
  for (const [path, ending] of [
    [["ending"], form.ending],
    [["quiz", "pass_ending"], form.quiz.pass_ending],
    [["quiz", "fail_ending"], form.quiz.fail_ending],
  ] as const) {
    add([...path, "title"], ending?.title);
    add([...path, "body"], ending?.body);
  }
  for (const ending of form.endings ?? []) {
    add(["endings", ending.id, "title"], ending.title);
    add(["endings", ending.id, "body"], ending.body);
  }
  add(["settings", "submit_label"], form.settings.submit_label);
  const copy = form.notifications.respondent;
  add(["notifications", "respondent", "subject"], copy?.subject);
  add(["notifications", "respondent", "body"], copy?.body);
  return out;
}

/** The value at a path of a plain object, or undefined. */
export function valueAt(data: unknown, path: StringPath): unknown {
  let v = data;
  for (const key of path) {
    if (typeof v !== "object" || v === null || !Object.hasOwn(v, key)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/** The values a choice field stores: its options, or a matrix's columns. */
export const ownChoices = (field: Form["fields"][number]): string[] =>
  "options" in field
    ? field.options.map(optionValue)
    : field.type === "matrix"
      ? field.columns
      : [];

/** The form in the translation's language, and per field the label to show for each choice. */
export interface TranslatedForm {
  /** The definition with its texts translated; options and columns keep the form's own values. */
  form: Form;
  /** Field id → {option or matrix column as in the form → label to show}; missing: as in the form. */
  choices: Record<string, Record<string, string>>;
}

/** An option's label in the respondent's language (the respondent's copy, SPEC §25). */
export const choiceLabel = (
  choices: TranslatedForm["choices"],
  fieldId: string,
  value: string,
): string => choices[fieldId]?.[value] ?? value;

type Texts = { title?: string | undefined; body?: string | undefined };
const merged = <T extends Texts>(ending: T | undefined, t: Texts | undefined): T | undefined =>
  ending && t ? { ...ending, ...defined(t) } : ending;
const defined = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/** The form as a respondent of the translation's language reads it; a missing string stays. */
export function translate(form: Form, translation: Translation): TranslatedForm {
  const choices: TranslatedForm["choices"] = {};
  const fields = form.fields.map((field) => {
    const t: FieldTranslation | undefined = translation.fields?.[field.id];
    if (!t) return field;
    const { options, rows, columns, ...texts } = t;
    const own = Object.keys(field);
    const out = { ...field } as Record<string, unknown>;
    for (const [key, value] of Object.entries(texts))
      if (value !== undefined && own.includes(key)) out[key] = value;
    const shown = { ...options, ...columns };
    if (Object.keys(shown).length > 0) choices[field.id] = shown;
    if (field.type === "matrix" && rows)
      out.rows = field.rows.map((r) => ({ ...r, label: rows[r.id] ?? r.label }));
    return out as typeof field;
  });
  const quiz = translation.quiz;
  const label = translation.settings?.submit_label;
  return {
    form: {
      ...form,
      title: translation.title ?? form.title,
      ...(form.body !== undefined && translation.body ? { body: translation.body } : {}),
      fields,
      ending: merged(form.ending, translation.ending),
      ...(form.endings
        ? { endings: form.endings.map((e) => merged(e, translation.endings?.[e.id])!) }
        : {}),
      quiz: {
        ...form.quiz,
        pass_ending: merged(form.quiz.pass_ending, quiz?.pass_ending),
        fail_ending: merged(form.quiz.fail_ending, quiz?.fail_ending),
      },
      settings: {
        ...form.settings,
        submit_label: form.settings.submit_label && (label ?? form.settings.submit_label),
      },
      notifications: {
        ...form.notifications,
        ...(form.notifications.respondent
          ? {
              respondent: {
                ...form.notifications.respondent,
                ...defined(translation.notifications?.respondent ?? {}),
              },
            }
          : {}),
      },
    },
    choices,
  };
}

/**
 * Answers in the form's own terms: a translated option or column label (as an API client that
 * read the translated form may send it) becomes the option as written in the form. A value that
 * is already one of the form's own options is kept, so the form's terms always win.
 */
export function toFormTerms(
  form: Form,
  translation: Translation,
  answers: Record<string, unknown>,
): Record<string, unknown> {
  const out = { ...answers };
  const { choices } = translate(form, translation);
  for (const field of form.fields) {
    const shown = choices[field.id];
    if (!shown || !Object.hasOwn(answers, field.id)) continue;
    const own = new Set(ownChoices(field));
    const back = new Map(Object.entries(shown).map(([value, label]) => [label, value]));
    const map = (v: unknown) => (typeof v === "string" && !own.has(v) ? (back.get(v) ?? v) : v);
    const value = answers[field.id];
    if (field.type === "matrix" && value && typeof value === "object" && !Array.isArray(value))
      out[field.id] = Object.fromEntries(Object.entries(value).map(([row, v]) => [row, map(v)]));
    else out[field.id] = Array.isArray(value) ? value.map(map) : map(value);
  }
  return out;
}

/** A form's translations as stored with it: language → the translation file's strings. */
export type Translations = Record<string, Translation>;

/** The languages a form's pages speak: its own first, then each listed one it has strings for. */
export const formLanguages = (
  form: Form,
  translations: Translations | null | undefined,
): string[] => [
  form.locale,
  ...(form.languages ?? []).filter((l) => translations?.[l] !== undefined),
];

/** The form as a page in `lang` shows it (its own language: as it is), speaking that locale. */
export function inLanguage(
  form: Form,
  lang: string,
  translations: Translations | null | undefined,
) {
  const translation = lang === form.locale ? undefined : translations?.[lang];
  if (!translation) return { form, choices: {} as TranslatedForm["choices"] };
  const translated = translate(form, translation);
  return { ...translated, form: { ...translated.form, locale: lang as Form["locale"] } };
}
