import type { Field } from "../field-schema.ts";
import { optionValue } from "../options.ts";
import type { Lineage } from "../plan/lineage.ts";
import { checkAnswer } from "../validate-answers.ts";

/**
 * Text the database can hold: well-formed Unicode without NUL (`\u0000`, refused in text and in
 * jsonb), so a filter's text is refused here, not by a statement that is already streaming.
 */
export const storableText = (text: string): boolean =>
  text.isWellFormed() && !text.includes("\u0000");

export interface Matched {
  /** The value in the form's own terms. */
  value: unknown;
  /** Every stored value that means it: the option and its earlier labels (`formerly`). */
  matches: unknown[];
}

/**
 * An option given in the form's own terms, matched exactly or, failing that, ignoring case
 * ("billing" finds "Billing"); an earlier label (`formerly`) names the option it became.
 */
function option(field: Field, raw: unknown, lines: Lineage | null): string | null {
  if (!("options" in field) || typeof raw !== "string") return null;
  const values = field.options.map(optionValue);
  const renamed = lines?.options.get(field.id);
  const exact = values.find((v) => v === raw) ?? renamed?.get(raw);
  if (exact !== undefined) return exact;
  const lower = raw.toLowerCase();
  return values.find((v) => v.toLowerCase() === lower) ?? null;
}

/** The stored labels of a live option: itself and the earlier labels that became it. */
function labelsOf(field: Field, value: string, lines: Lineage | null): string[] {
  const earlier = [...(lines?.options.get(field.id) ?? [])].filter(([, to]) => to === value);
  return [value, ...earlier.map(([was]) => was)];
}

/** An option of a checkbox or ranking for `includes`/`excludes`, or null. */
export function choiceValues(field: Field, raw: unknown, lines: Lineage | null): Matched | null {
  const value = option(field, raw, lines);
  return value === null ? null : { value, matches: labelsOf(field, value, lines) };
}

/**
 * A whole value for `eq`/`neq` in the form's own terms, or the problem with it: an option as
 * above (a list of them for checkbox and ranking), "yes"/"no" (or true/false) for yes_no, text
 * for text fields (their length rules are the respondent's, not the filter's), anything else as
 * an answer would be checked.
 */
export function fieldValue(field: Field, raw: unknown, lines: Lineage | null): Matched | string {
  switch (field.type) {
    case "text":
    case "textarea":
    case "email":
      if (typeof raw !== "string") return "is not text";
      return storableText(raw)
        ? { value: raw, matches: [raw] }
        : "is not well-formed text (NUL or a lone surrogate)";
    case "yes_no": {
      const value = raw === true ? "yes" : raw === false ? "no" : raw;
      return value === "yes" || value === "no"
        ? { value, matches: [value] }
        : 'is not "yes" or "no"';
    }
    case "radio":
    case "select": {
      const value = option(field, raw, lines);
      return value === null
        ? `is not one of: ${field.options.map(optionValue).join(", ")}`
        : { value, matches: labelsOf(field, value, lines) };
    }
    case "checkbox":
    case "ranking": {
      if (!Array.isArray(raw)) return "is not a list of options";
      const list = raw.map((x) => option(field, x, lines));
      if (list.some((x) => x === null)) return "names something that is not an option";
      const problem = checkAnswer(field, list);
      return problem ? problem : { value: list, matches: [list] };
    }
    default: {
      const problem = checkAnswer(field, raw);
      return problem ? problem : { value: raw, matches: [raw] };
    }
  }
}
