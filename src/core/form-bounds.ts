// How big a form may be (SPEC §19 "Bounded work per request"): a page render or a validation stays
// within about 100 ms of one core for any form that validates (bench/hostile.ts measures the
// largest). The list bounds sit on the schema's arrays; what a single key cannot say is here.
import type { z } from "zod";
import type { Field } from "./field-schema.ts";

/** Fields in one form. */
export const MAX_FIELDS = 500;
/** Entries of one list: options, matrix rows and columns, hidden names, recipients. */
export const MAX_OPTIONS = 1000;
/**
 * Owners' notification addresses (`notifications.email`): no one verified them, and every
 * response may email each (SPEC §23 "Respondent copies are no relay").
 */
export const MAX_RECIPIENTS = 50;
/** Responses 1..N that each email the owners (`immediate_count`); digests cover the rest. */
export const MAX_IMMEDIATE = 1000;
/**
 * Choices one page draws in all: options, plus rows × columns of each matrix. Each is an input
 * and a label (a few µs to render); 88,000 took 615 ms CPU and 10,000 about 125 ms (bench/hostile.ts,
 * a loaded machine), so a page keeps to 5,000.
 */
export const MAX_CHOICES = 5_000;
/**
 * Keys one submit's JSON can need: one per field, matrix row and hidden value, and the body's own
 * few. A body naming more is refused before it is parsed (SPEC §23: a 1 MB body of 91,920
 * unknown ids cost 57 ms of one core to parse and check).
 */
export const MAX_ANSWER_KEYS = MAX_FIELDS + MAX_CHOICES + MAX_OPTIONS + 100;
/**
 * Characters of a matrix row's text and of a column's. Each cell draws its row's text (its name
 * for screen readers) and its column's twice (that name, and the text a phone shows), so a 46 KB
 * form of 1,000 rows and two columns of 10,000 characters drew a 60 MB page, which held the event
 * loop 1.2 s (and 290 MB) on every anonymous view. With these, a matrix page stays near 4 MB.
 */
export const MAX_MATRIX_ROW = 300;
export const MAX_MATRIX_COLUMN = 100;
/** Points of one scale (0..100 in ones is 101). */
export const MAX_SCALE_POINTS = 101;
/** A form file, and a form definition sent as JSON, in bytes. */
export const MAX_FORM_BYTES = 256 * 1024;
/** A scale's ends stay where a step of its smallest increment still moves the value. */
const SCALE_LIMIT = 1e9;
const MIN_INCREMENT = 0.001;

type Ctx = Pick<z.core.$RefinementCtx, "addIssue">;

/** The number of values a scale offers, as the page draws them. */
export function scalePoints(min: number, max: number, increment: number): number {
  return Math.floor((max - min) / increment + 1e-9) + 1;
}

/** A scale the page could draw: ends within ±1e9, increment ≥ 0.001, at most 101 points. */
export function checkScaleBounds(field: Field, at: (string | number)[], ctx: Ctx): void {
  if (field.type !== "scale") return;
  const add = (key: string, message: string) =>
    ctx.addIssue({ code: "custom", path: [...at, key], message });
  if (Math.abs(field.min) > SCALE_LIMIT)
    add("min", `must be between -${SCALE_LIMIT} and ${SCALE_LIMIT}`);
  if (Math.abs(field.max) > SCALE_LIMIT)
    add("max", `must be between -${SCALE_LIMIT} and ${SCALE_LIMIT}`);
  if (field.increment < MIN_INCREMENT) add("increment", `must be at least ${MIN_INCREMENT}`);
  else if (field.max >= field.min) {
    const points = scalePoints(field.min, field.max, field.increment);
    if (points > MAX_SCALE_POINTS)
      add(
        "max",
        `gives ${points} points from min ${field.min} in steps of ${field.increment}; a scale has at most ${MAX_SCALE_POINTS} (use a number field for a wider range)`,
      );
  }
}

/**
 * Choices a field draws: its options, a matrix's rows × columns, a scale's points (a rating's
 * stars, an NPS's 11). Scales were not counted: 500 scales of 101 points (a 20 KB form) drew
 * 50,500 inputs, a 5.3 MB page that held the event loop 0.7-0.8 s on each anonymous view.
 */
function choices(field: Field): number {
  if (field.type === "matrix") return field.rows.length * field.columns.length;
  if (field.type === "scale")
    return Math.min(
      MAX_SCALE_POINTS,
      Math.max(0, scalePoints(field.min, field.max, field.increment)),
    );
  if (field.type === "rating") return field.max;
  if (field.type === "nps") return 11;
  return "options" in field ? field.options.length : 0;
}

/** Refuses a form whose fields draw more than MAX_CHOICES choices in all, at the field that passes it. */
export function checkChoiceTotal(fields: readonly (Field | null)[], ctx: Ctx): void {
  let total = 0;
  for (const [i, field] of fields.entries()) {
    if (!field) continue;
    total += choices(field);
    if (total > MAX_CHOICES) {
      const key = field.type === "matrix" ? "rows" : "options" in field ? "options" : "max";
      ctx.addIssue({
        code: "custom",
        path: ["fields", i, key],
        message: `brings the form to ${total} choices (options, rows × columns of a matrix, points of a scale); a form draws at most ${MAX_CHOICES}`,
      });
      return;
    }
  }
}

/** True when a text is over MAX_FORM_BYTES in UTF-8; it is encoded only when its length cannot tell. */
export function overFormBytes(text: string): boolean {
  if (text.length > MAX_FORM_BYTES) return true;
  if (text.length * 3 <= MAX_FORM_BYTES) return false;
  return new TextEncoder().encode(text).length > MAX_FORM_BYTES;
}

/**
 * Blank characters in a row a form file's header may hold. gray-matter tests every header for
 * emptiness with `/^\s*#[^\n]+/gm`, which from each line start in a run of blank lines scans to
 * the run's end: quadratic in the run (120 KB of " \n" held the event loop 2.6 s, 256 KB about
 * 10 s; U+2028, a line start to the pattern, did the same inside one label). No header needs a
 * thousand blanks in a row; past that the file is refused before gray-matter reads it.
 */
export const MAX_HEADER_BLANKS = 1000;

/** The longest run of blank characters (`\s`) in the header of a form file's text. */
export function longestHeaderBlank(text: string): number {
  const close = text.indexOf("\n---", 3);
  const header = close === -1 ? text : text.slice(0, close);
  let longest = 0;
  for (const run of header.matchAll(/\s+/g)) longest = Math.max(longest, run[0].length);
  return longest;
}
