import { z } from "zod";
import { MAX_MATRIX_COLUMN, MAX_MATRIX_ROW, MAX_OPTIONS } from "./form-bounds.ts";
import { conditionSchema, gotoSchema } from "./logic/logic-schema.ts";

/** The 17 field types of a form, in the order the author reference lists them. */
export const FIELD_TYPES = [
  "text",
  "email",
  "textarea",
  "number",
  "radio",
  "checkbox",
  "select",
  "date",
  "image",
  "file",
  "rating",
  "scale",
  "nps",
  "yes_no",
  "ranking",
  "matrix",
  "statement",
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const SHOW_IF_OPS = ["eq", "neq", "gt", "lt", "gte", "lte", "includes", "excludes"] as const;
export type ShowIfOp = (typeof SHOW_IF_OPS)[number];

/** Field ids are snake_case: a lowercase letter, then lowercase letters, digits or underscores. */
export const FIELD_ID = /^[a-z][a-z0-9_]*$/;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** YAML turns an unquoted `2026-01-01` into a Date; keep dates as ISO text. */
const dateText = z.preprocess(
  (v) => (v instanceof Date ? v.toISOString().slice(0, 10) : v),
  z.string().regex(ISO_DATE, "must be a date written YYYY-MM-DD"),
);

const fieldId = z
  .string()
  .regex(FIELD_ID, "must be snake_case: a lowercase letter, then lowercase letters, digits or _");

/** Media shown above an input, or on a radio/checkbox option card. */
export const mediaSchema = z
  .strictObject({
    /** What the URL points at. */
    type: z
      .enum(["image", "youtube", "video", "model3d"])
      .describe("image, youtube, video or model3d"),
    /** Public URL (youtube: full URL or the 11-character video id). */
    url: z.string().min(1).describe("Public URL; for youtube a full URL or the 11-character id"),
    /** Text alternative for people who cannot see the media. */
    alt: z.string().optional().describe("Text alternative"),
  })
  .describe("Media shown above the input or on an option card");

/** An option of a choice field: a string, or (radio/checkbox) a label with media. */
export const optionSchema = z.union([
  z.string().min(1).describe("The option's label, which is also its stored value"),
  z
    .strictObject({
      /** The option's label, which is also its stored value. */
      label: z.string().min(1).describe("The option's label, which is also its stored value"),
      /** Media that turns the options into a card grid. */
      media: mediaSchema.optional(),
      /** Labels this option had before: their stored answers count as this option (SPEC §16). */
      formerly: z
        .array(z.string().min(1))
        .optional()
        .describe("Earlier labels of this option; their answers count as this one"),
      /** Chosen, it jumps forward to a step or an ending (SPEC §24). */
      goto: gotoSchema.optional(),
    })
    .describe("An option with media, earlier labels or a jump (radio and checkbox)"),
]);
export type Option = z.output<typeof optionSchema>;

/**
 * Conditional display: a rule on an earlier answer, a variable or a hidden value, or a group of
 * rules (`all`, `any`, `not`), nested (SPEC §24).
 */
export const showIfSchema = conditionSchema;

const base = {
  /** Unique within the form; the key of the answer in every response. */
  id: fieldId.describe("Unique snake_case id; the answer's key in responses"),
  /** Ids this field had before (SPEC §16): their stored answers count as this field's. */
  formerly: z
    .array(fieldId)
    .optional()
    .describe("Earlier ids of this field; their stored answers carry over"),
  /** The question shown to respondents. */
  label: z.string().optional().describe("The question shown to respondents"),
  /** Help text under the label. */
  description: z.string().optional().describe("Help text shown under the label"),
  /** The respondent must answer (only applies while the field is shown). */
  required: z.boolean().default(false).describe("Must be answered while shown"),
  /** Conditional display. */
  show_if: showIfSchema.optional(),
  /** After this field's page, jump forward to a step or finish at an ending (SPEC §24). */
  goto: gotoSchema.optional(),
  /** false: the page's query string (`?f.<id>=`) may not prefill it (SPEC §25). */
  prefill: z.boolean().optional().describe("false: ?f.<id>= in the page URL may not prefill it"),
  /** Media shown above the input. */
  media: mediaSchema.optional(),
  /** Page of a multi-step form: consecutive fields with the same value share a page. Not for surveys. */
  step: z
    .union([z.number().int().positive(), z.string().min(1).max(40)])
    .optional()
    .describe("Page of a multi-step form (a positive integer or a short label); not for surveys"),
  /** Quiz only: the correct answer, the same shape as the response value. */
  answer: z
    .unknown()
    .optional()
    .describe("Quiz: the correct answer, same shape as the response value"),
  /** Quiz only: points for a correct answer. */
  points: z.number().nonnegative().default(1).describe("Quiz: points for a correct answer"),
  /** Quiz only: shown with the results. */
  explanation: z.string().optional().describe("Quiz: explanation shown with the results"),
};

const placeholder = z.string().optional().describe("Hint shown inside an empty input");
const textLimits = {
  /** Minimum length in characters. */
  min_length: z.number().int().nonnegative().optional().describe("Minimum length in characters"),
  /** Maximum length in characters. */
  max_length: z.number().int().positive().default(10_000).describe("Maximum length in characters"),
};
const choiceOptions = z.array(optionSchema).min(1).max(MAX_OPTIONS).describe("The choices");
const plainOptions = z
  .array(
    z.union([
      z.string().min(1).describe("The option's label, which is also its stored value"),
      z
        .strictObject({
          /** The option's label, which is also its stored value. */
          label: z.string().min(1).describe("The option's label, which is also its stored value"),
          /** Labels this option had before: their stored answers count as this option. */
          formerly: z
            .array(z.string().min(1))
            .optional()
            .describe("Earlier labels of this option; their answers count as this one"),
          /** Chosen (in a select), it jumps forward to a step or an ending. */
          goto: gotoSchema.optional(),
        })
        .describe("An option with earlier labels or a jump"),
    ]),
  )
  .min(1)
  .max(MAX_OPTIONS)
  .describe("The choices");
const upload = {
  /** Allowed MIME types, e.g. `image/png` or `image/*`. */
  accept: z
    .array(z.string().min(1))
    .max(MAX_OPTIONS)
    .optional()
    .describe("Allowed MIME types, e.g. image/*"),
  /** Largest file, in megabytes. */
  max_mb: z.number().positive().max(100).default(10).describe("Largest file in megabytes"),
};
const endLabels = {
  /** Label at the low end. */
  low_label: z.string().optional().describe("Label at the low end"),
  /** Label at the high end. */
  high_label: z.string().optional().describe("Label at the high end"),
};

const t = <T extends FieldType>(type: T) => z.literal(type).describe(`Field type: ${type}`);

export const fieldSchema = z.discriminatedUnion("type", [
  z.strictObject({ ...base, type: t("text"), placeholder, ...textLimits }),
  z.strictObject({ ...base, type: t("email"), placeholder }),
  z.strictObject({ ...base, type: t("textarea"), placeholder, ...textLimits }),
  z.strictObject({
    ...base,
    type: t("number"),
    placeholder,
    min: z.number().optional().describe("Smallest accepted number"),
    max: z.number().optional().describe("Largest accepted number"),
  }),
  z.strictObject({ ...base, type: t("radio"), options: choiceOptions }),
  z.strictObject({ ...base, type: t("checkbox"), options: choiceOptions }),
  z.strictObject({ ...base, type: t("select"), options: plainOptions, placeholder }),
  z.strictObject({
    ...base,
    type: t("date"),
    min: dateText.optional().describe("Earliest date, YYYY-MM-DD"),
    max: dateText.optional().describe("Latest date, YYYY-MM-DD"),
  }),
  z.strictObject({ ...base, type: t("image"), ...upload }),
  z.strictObject({ ...base, type: t("file"), ...upload }),
  z.strictObject({
    ...base,
    type: t("rating"),
    max: z.number().int().min(2).max(10).default(5).describe("Top of the 1..max range"),
  }),
  z.strictObject({
    ...base,
    type: t("scale"),
    min: z.number().default(1).describe("Lowest value"),
    max: z.number().default(5).describe("Highest value"),
    /** Distance between values. (`step` on a scale, as on every field, is its page.) */
    increment: z.number().positive().default(1).describe("Distance between values"),
    ...endLabels,
  }),
  z.strictObject({ ...base, type: t("nps"), ...endLabels }),
  z.strictObject({ ...base, type: t("yes_no") }),
  z.strictObject({ ...base, type: t("ranking"), options: plainOptions }),
  z.strictObject({
    ...base,
    type: t("matrix"),
    rows: z
      .array(
        z.strictObject({
          /** Unique within the field; the key in the response value. */
          id: fieldId.describe("Row id, unique within the field"),
          /** The row's text. */
          label: z.string().min(1).max(MAX_MATRIX_ROW).describe("The row's text"),
        }),
      )
      .min(1)
      .max(MAX_OPTIONS)
      .describe("The statements respondents rate"),
    columns: z
      .array(z.string().min(1).max(MAX_MATRIX_COLUMN))
      .min(1)
      .max(MAX_OPTIONS)
      .describe("The choices for every row"),
  }),
  z.strictObject({ ...base, type: t("statement") }),
]);

export type Field = z.output<typeof fieldSchema>;
export type FieldInput = z.input<typeof fieldSchema>;

export { optionValue } from "./options.ts";
