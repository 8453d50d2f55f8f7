import { cellText } from "./csv.ts";
import type { Field } from "./field-schema.ts";

/**
 * An answer as lines a person reads (emails, the response view): a matrix one line per row
 * ("Speed: Good"), a ranking one numbered line per option, a list its items joined; never JSON.
 */
export function answerLines(field: Field, value: unknown): string[] {
  if (value === undefined || value === null || value === "") return [];
  if (field.type === "matrix" && typeof value === "object" && !Array.isArray(value)) {
    const answers = value as Record<string, unknown>;
    return field.rows
      .filter((r) => answers[r.id] !== undefined)
      .map((r) => `${r.label}: ${cellText(answers[r.id])}`);
  }
  if (field.type === "ranking" && Array.isArray(value))
    return value.map((v, i) => `${i + 1}. ${cellText(v)}`);
  if (Array.isArray(value)) return value.length ? [value.map(cellText).join(", ")] : [];
  return [cellText(value)];
}
