import { assertNever, type FieldIssue, fail, ok, type Result } from "./errors.ts";
import type { Field } from "./field-schema.ts";
import { optionValue } from "./options.ts";
import { andMore, MAX_PROBLEMS } from "./problem-list.ts";
import { clip, clipList, quoteText } from "./quote.ts";
import { answerOf, visibleFields } from "./show-if.ts";

/** A minimal view of a form: enough to validate answers (the page and the server share this). */
export interface AnswerForm {
  fields: Field[];
  hidden?: string[];
}

export type Payload = Record<string, unknown>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** An empty string, empty array or empty object counts as no answer. */
export function isEmptyAnswer(value: unknown): boolean {
  if (value === undefined || value === null || value === "") return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === "object") return Object.keys(value).length === 0;
  return false;
}

function validDate(text: string): boolean {
  const m = ISO_DATE.exec(text);
  if (!m) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(text);
}

const isInt = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v);
const isNum = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v);
const strings = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((x) => typeof x === "string");

function textProblem(v: unknown, min: number | undefined, max: number): string | null {
  if (typeof v !== "string") return "must be text";
  if (min !== undefined && v.length < min) return `must be at least ${min} characters`;
  if (v.length > max) return `must be at most ${max} characters`;
  return null;
}

/** The problem with a non-empty value for this field, or null when it is acceptable. */
export function checkAnswer(field: Field, v: unknown): string | null {
  switch (field.type) {
    case "text":
    case "textarea":
      return textProblem(v, field.min_length, field.max_length);
    case "email":
      if (typeof v !== "string" || v.length > 320 || !EMAIL.test(v))
        return "must be an email address";
      return null;
    case "number":
      if (!isNum(v)) return "must be a number";
      if (field.min !== undefined && v < field.min) return `must be at least ${field.min}`;
      if (field.max !== undefined && v > field.max) return `must be at most ${field.max}`;
      return null;
    case "radio":
    case "select": {
      const values = field.options.map(optionValue);
      return typeof v === "string" && values.includes(v)
        ? null
        : `must be one of: ${clipList(values)}`;
    }
    case "checkbox": {
      const values = field.options.map(optionValue);
      if (!strings(v)) return "must be a list of options";
      if (new Set(v).size !== v.length) return "must not repeat an option";
      const bad = v.find((x) => !values.includes(x));
      return bad === undefined ? null : `${quoteText(bad)} is not one of the options`;
    }
    case "ranking": {
      if (!strings(v)) return "must be a list of the options in order";
      const ok =
        v.length === field.options.length && field.options.every((o) => v.includes(optionValue(o)));
      return ok && new Set(v).size === v.length ? null : "must order every option exactly once";
    }
    case "date":
      if (typeof v !== "string" || !validDate(v)) return "must be a date written YYYY-MM-DD";
      if (field.min !== undefined && v < field.min) return `must be on or after ${field.min}`;
      if (field.max !== undefined && v > field.max) return `must be on or before ${field.max}`;
      return null;
    case "image":
    case "file":
      if (typeof v !== "string" || v.length > 2048 || !/^(?:https?:\/\/|\/)\S+$/.test(v)) {
        return "must be the URL of an uploaded file";
      }
      return null;
    case "rating":
      return isInt(v) && v >= 1 && v <= field.max
        ? null
        : `must be a whole number from 1 to ${field.max}`;
    case "scale": {
      if (!isNum(v) || v < field.min || v > field.max)
        return `must be a number from ${field.min} to ${field.max}`;
      const k = (v - field.min) / field.increment;
      return Math.abs(k - Math.round(k)) < 1e-9
        ? null
        : `must be one of the scale's values (every ${field.increment} from ${field.min})`;
    }
    case "nps":
      return isInt(v) && v >= 0 && v <= 10 ? null : "must be a whole number from 0 to 10";
    case "yes_no":
      return v === "yes" || v === "no" ? null : 'must be "yes" or "no"';
    case "matrix": {
      if (!v || typeof v !== "object" || Array.isArray(v)) return "must map row ids to columns";
      for (const [row, col] of Object.entries(v)) {
        if (!field.rows.some((r) => r.id === row))
          return `${quoteText(row)} is not a row of this field`;
        if (typeof col !== "string" || !field.columns.includes(col)) {
          return `row "${row}" must be one of: ${clipList(field.columns)}`;
        }
      }
      return null;
    }
    case "statement":
      return "a statement records no answer";
    default:
      return assertNever(field);
  }
}

function requiredProblem(field: Field, v: unknown): string | null {
  if (isEmptyAnswer(v)) return "is required";
  if (field.type === "matrix") {
    const answered = v as Record<string, unknown>;
    const missing = field.rows.find((r) => answerOf(answered, r.id) === undefined);
    if (missing) return `every row needs an answer ("${missing.label}" has none)`;
  }
  return null;
}

/**
 * Checks a respondent's answers against the form (SPEC §5) and returns the payload to store:
 * only visible, non-statement fields with an answer, plus `_hidden` URL values the form
 * declares. Unknown field ids fail; a value for a field hidden by show_if is dropped.
 */
export function validateAnswers(
  form: AnswerForm,
  fields: unknown,
  hidden?: unknown,
): Result<{ payload: Payload }> {
  if (!fields || typeof fields !== "object" || Array.isArray(fields)) {
    return fail("validation_failed", "`fields` must be an object mapping field ids to answers.", {
      details: [{ field: "fields", message: "must be an object" }],
    });
  }
  const answers = fields as Record<string, unknown>;
  // at most 100 problems listed, the rest counted (a 1 MB body can name 91,920 unknown ids); a
  // plain list and a count, not ProblemList: this runs in the page too, whose script has a budget
  const details: FieldIssue[] = [];
  let more = 0;
  const add = (issue: FieldIssue) => {
    if (details.length < MAX_PROBLEMS) details.push(issue);
    else more++;
  };
  const ids = new Set(form.fields.map((f) => f.id));
  for (const id of Object.keys(answers)) {
    if (!ids.has(id)) add({ field: clip(id), message: "is not a field of this form" });
  }
  const payload: Payload = {};
  for (const field of visibleFields(form.fields, answers)) {
    if (field.type === "statement") continue;
    const value = answerOf(answers, field.id);
    const problem = isEmptyAnswer(value)
      ? field.required
        ? requiredProblem(field, value)
        : null
      : (checkAnswer(field, value) ?? (field.required ? requiredProblem(field, value) : null));
    if (problem) add({ field: field.id, message: problem });
    else if (!isEmptyAnswer(value)) payload[field.id] = value;
  }
  const total = details.length + more;
  if (total > 0) {
    const noun = total === 1 ? "answer needs" : "answers need";
    const count = total.toLocaleString("en-US");
    const rest = more > 0 ? ` (${details.length} listed, ${andMore(more)})` : "";
    return fail("validation_failed", `${count} ${noun} attention${rest}.`, {
      details,
    });
  }
  const declared = form.hidden ?? [];
  if (declared.length > 0) {
    const given = hidden && typeof hidden === "object" ? (hidden as Record<string, unknown>) : {};
    const kept: Record<string, string> = {};
    for (const name of declared) {
      const v = answerOf(given, name);
      if (typeof v === "string" && v !== "") kept[name] = v.slice(0, 500);
    }
    payload._hidden = kept;
  }
  return ok({ payload });
}
