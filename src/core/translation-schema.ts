// A form's extra languages and the front matter of a translation file (SPEC §20):
// forms/@<handler>/<slug>.<lang>.md holds only strings, keyed by field id; its Markdown body is
// the translated body. Whether each key names something of the form is `checkTranslation`'s job.
import { z } from "zod";
import { MAX_MATRIX_COLUMN, MAX_MATRIX_ROW } from "./form-bounds.ts";
import { LOCALES } from "./locales/codes.ts";

/** The extra languages of a form (its own is `locale`); each has a translation file beside it. */
export const languagesSchema = z
  .array(z.enum(LOCALES, { message: `must be one of: ${LOCALES.join(", ")}` }))
  .refine((list) => new Set(list).size === list.length, "must not name a language twice")
  .optional()
  .describe(
    `Extra languages, each with a translation file <slug>.<lang>.md beside the form: ${LOCALES.join(", ")}`,
  );

const text = z.string().trim().min(1, "must not be empty");
/** `{<as in the form>: <translated>}`: options and matrix columns by their text, rows by id. */
const labels = z.record(z.string(), text);

export const fieldTranslationSchema = z
  .strictObject({
    /** The question. */
    label: text.optional().describe("The translated question"),
    /** Help text under the label. */
    description: text.optional().describe("The translated help text"),
    /** Hint inside an empty input. */
    placeholder: text.optional().describe("The translated placeholder"),
    /** Scale and NPS end labels. */
    low_label: text.optional().describe("The translated low-end label"),
    high_label: text.optional().describe("The translated high-end label"),
    /** Choice options: the option as written in the form → its translation. */
    options: labels.optional().describe("Option as written in the form → translated label"),
    /** Matrix rows: row id → translated label. */
    rows: z
      .record(z.string(), text.max(MAX_MATRIX_ROW))
      .optional()
      .describe("Matrix row id → translated label"),
    /** Matrix columns: the column as written in the form → its translation. */
    columns: z
      .record(z.string(), text.max(MAX_MATRIX_COLUMN))
      .optional()
      .describe("Matrix column as written in the form → translated label"),
    /** Quiz explanation shown with the results. */
    explanation: text.optional().describe("The translated quiz explanation"),
  })
  .describe("The translated strings of one field");
export type FieldTranslation = z.output<typeof fieldTranslationSchema>;

const endingTranslation = z
  .strictObject({
    title: text.optional().describe("The translated heading after submitting"),
    body: text.optional().describe("The translated Markdown after submitting"),
  })
  .describe("The translated ending");

/** The front matter of a translation file, plus `body` (its Markdown body). */
export const translationSchema = z
  .strictObject({
    /** The translated title. */
    title: text.optional().describe("The translated title"),
    /** The translated Markdown body (the file's body, not a key). */
    body: z.string().trim().optional().describe("The translated instructions"),
    /** Field id → its translated strings. */
    fields: z
      .record(z.string(), fieldTranslationSchema)
      .optional()
      .describe("Field id → translated strings"),
    ending: endingTranslation.optional(),
    /** Ending id → its translated texts (SPEC §24). */
    endings: z
      .record(z.string(), endingTranslation)
      .optional()
      .describe("Ending id → translated title and body"),
    quiz: z
      .strictObject({
        pass_ending: endingTranslation.optional(),
        fail_ending: endingTranslation.optional(),
      })
      .optional()
      .describe("The translated quiz endings"),
    settings: z
      .strictObject({ submit_label: text.max(40).optional().describe("The translated button") })
      .optional()
      .describe("The translated settings text"),
    /** The respondent's copy in this language (SPEC §25). */
    notifications: z
      .strictObject({
        respondent: z
          .strictObject({
            subject: text.max(200).optional().describe("The translated subject"),
            body: text.max(5000).optional().describe("The translated Markdown above the answers"),
          })
          .optional(),
      })
      .optional()
      .describe("The translated respondent's copy"),
  })
  .describe("A translation of a form's strings into one of its languages");

export type Translation = z.output<typeof translationSchema>;
export type TranslationInput = z.input<typeof translationSchema>;

/** `languages` naming the form's own `locale`: that language is the form itself, not a file. */
export function ownLanguageIssues(form: {
  locale?: unknown;
  languages?: unknown;
}): { code: "custom"; path: (string | number)[]; message: string; input: unknown }[] {
  if (!Array.isArray(form.languages)) return [];
  const own = typeof form.locale === "string" ? form.locale : "en";
  const at = form.languages.indexOf(own);
  if (at < 0) return [];
  return [
    {
      code: "custom",
      path: ["languages", at],
      message: `"${own}" is the form's own language (locale); languages lists the others`,
      input: own,
    },
  ];
}
