// The `where` filter language (SPEC §18): a list of conditions `{field, op, value}`, all of which
// must hold, checked here against the form's definition before anything reaches SQL. A condition
// that could never mean anything (an unknown field, an op its type cannot take, a value no answer
// can have) is refused naming it, never judged silently false.
import { assertNever, fail, ok, type Result } from "../errors.ts";
import type { Field, FieldType } from "../field-schema.ts";
import { CONDITION_OPS, type ConditionOp } from "../logic/condition.ts";
import { hasEndings } from "../logic/respond.ts";
import { optionValue } from "../options.ts";
import type { Lineage } from "../plan/lineage.ts";
import { clipList, quote } from "../quote.ts";
import type { Form } from "../schema.ts";
import { checkAnswer, isEmptyAnswer } from "../validate-answers.ts";
import { checkLogicCondition } from "./logic.ts";
import { choiceValues, fieldValue, storableText } from "./values.ts";

/** A filter (SPEC §18) compares as a condition of the form's logic does (SPEC §24). */
export const WHERE_OPS = CONDITION_OPS;
export type WhereOp = ConditionOp;
export type CompareOp = "gt" | "lt" | "gte" | "lte";

/** At most this many conditions in one `where` (each one is a little more work per row). */
export const MAX_CONDITIONS = 20;

/** The largest version a filter names: `responses.version` is a Postgres integer. */
export const MAX_VERSION = 2_147_483_647;

const COMPARE: readonly string[] = ["gt", "lt", "gte", "lte"];
const NUMERIC: readonly FieldType[] = ["number", "rating", "scale", "nps"];
const TEXT: readonly FieldType[] = ["text", "textarea", "email"];
const LISTS: readonly FieldType[] = ["checkbox", "ranking"];
/** Types whose answers compare as a whole value (`eq`/`neq`). */
const VALUED: readonly FieldType[] = [
  ...TEXT,
  ...NUMERIC,
  ...LISTS,
  "radio",
  "select",
  "date",
  "yes_no",
];

/** The ops a field of this type can take (`answered`/`unanswered` any answerable field). */
export function opsFor(type: FieldType): WhereOp[] {
  return WHERE_OPS.filter((op) => {
    if (op === "answered" || op === "unanswered") return true;
    if (op === "eq" || op === "neq") return VALUED.includes(type);
    if (COMPARE.includes(op)) return NUMERIC.includes(type) || type === "date";
    if (op === "includes" || op === "excludes") return LISTS.includes(type);
    if (op === "contains") return TEXT.includes(type);
    return false;
  });
}

/** A condition on an answer: `keys` are every id it may be stored under (the live id first). */
export interface AnswerCondition {
  on: "answer";
  field: string;
  type: FieldType;
  keys: string[];
  op: WhereOp;
  /** The value in the form's own terms (what the heading shows). */
  value: unknown;
  /** The stored values that match `value` (an option and its earlier labels), for eq/includes. */
  matches: unknown[];
  /** A variable's value (SPEC §24) is read from the `variables` column, not the payload. */
  column?: "variables";
}

export type WhereCondition =
  | AnswerCondition
  | { on: "submitted_at"; field: "submitted_at"; op: CompareOp; value: string }
  | {
      on: "version";
      field: "version";
      op: Exclude<WhereOp, "contains" | "includes" | "excludes" | "answered" | "unanswered">;
      value: number;
    }
  | { on: "lang"; field: "lang"; op: "eq" | "neq"; value: string; own: string }
  | { on: "ending"; field: "ending"; op: "eq" | "neq"; value: string };

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const LANG = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/** The instants a timestamp can name in the database: there is no year 0 (nor 10000) there. */
const FIRST_MS = Date.parse("0001-01-01T00:00:00Z");
const LAST_MS = Date.parse("9999-12-31T23:59:59.999Z");

/**
 * An ISO date (midnight UTC) or timestamp with an offset, as a canonical instant within the
 * years 1 to 9999; null if not (JavaScript takes year 0, which Postgres refuses mid-statement).
 */
export function isoInstant(value: unknown): string | null {
  if (typeof value !== "string" || !(DATE.test(value) || DATETIME.test(value))) return null;
  const ms = Date.parse(DATE.test(value) ? `${value}T00:00:00Z` : value);
  return ms >= FIRST_MS && ms <= LAST_MS ? new Date(ms).toISOString() : null;
}

type Checked = Result<WhereCondition>;
const bad = (at: string, message: string): Checked =>
  fail("invalid_request", `${at}: ${message}`, { details: [{ field: at, message }] });

function checkMeta(at: string, field: string, op: string, value: unknown, form: Form): Checked {
  if (field === "submitted_at") {
    if (!COMPARE.includes(op)) return bad(at, "submitted_at takes gt, lt, gte or lte");
    const instant = isoInstant(value);
    if (!instant) return bad(at, `${quote(value)} is not an ISO date or timestamp`);
    return ok({ on: "submitted_at", field, op: op as CompareOp, value: instant });
  }
  if (field === "version") {
    if (!["eq", "neq", ...COMPARE].includes(op))
      return bad(at, "version takes eq, neq, gt, lt, gte or lte");
    if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > MAX_VERSION)
      return bad(at, `${quote(value)} is not a version number (1 to ${MAX_VERSION})`);
    return ok({ on: "version", field, op: op as "eq", value: value as number });
  }
  if (op !== "eq" && op !== "neq") return bad(at, "lang takes eq or neq");
  if (typeof value !== "string" || !LANG.test(value))
    return bad(at, `${quote(value)} is not a language code`);
  return ok({ on: "lang", field: "lang", op, value, own: form.locale ?? "en" });
}

function checkAnswerCondition(
  at: string,
  field: Field,
  keys: string[],
  op: WhereOp,
  raw: unknown,
  lines: Lineage | null,
): Checked {
  const ops = opsFor(field.type);
  if (!ops.includes(op))
    return bad(at, `${field.id} (${field.type}) cannot take ${op}; it takes ${ops.join(", ")}`);
  const base = { on: "answer" as const, field: field.id, type: field.type, keys, op };
  switch (op) {
    case "answered":
    case "unanswered":
      return ok({ ...base, value: null, matches: [] });
    case "contains":
      if (typeof raw !== "string" || raw === "" || raw.length > 200 || !storableText(raw))
        return bad(at, "contains takes text of 1 to 200 characters (without NUL)");
      return ok({ ...base, value: raw, matches: [] });
    case "gt":
    case "lt":
    case "gte":
    case "lte":
      if (field.type === "date")
        return typeof raw === "string" && DATE.test(raw) && !checkAnswer(field, raw)
          ? ok({ ...base, value: raw, matches: [] })
          : bad(at, `${quote(raw)} is not a date written YYYY-MM-DD`);
      return typeof raw === "number" && Number.isFinite(raw)
        ? ok({ ...base, value: raw, matches: [] })
        : bad(at, `${quote(raw)} is not a number`);
    case "includes":
    case "excludes": {
      const found = choiceValues(field, raw, lines);
      return found ? ok({ ...base, ...found }) : bad(at, optionProblem(field, raw));
    }
    case "eq":
    case "neq": {
      const found = fieldValue(field, raw, lines);
      if (typeof found === "string") return bad(at, `${quote(raw)} ${found}`);
      return ok({ ...base, ...found });
    }
    default:
      return assertNever(op);
  }
}

const optionProblem = (field: Field, raw: unknown) =>
  `${quote(raw)} is not one of ${field.id}'s options${"options" in field ? ` (${clipList(field.options.map(optionValue))})` : ""}`;

/** One condition checked against the form; `index` names it in a failure (`where[1]`). */
function checkCondition(form: Form, lines: Lineage | null, raw: unknown, index: number): Checked {
  const at = `where[${index}]`;
  if (!raw || typeof raw !== "object" || Array.isArray(raw))
    return bad(at, "must be an object {field, op, value}");
  const { field, op, value, ...rest } = raw as Record<string, unknown>;
  const extra = Object.keys(rest);
  if (extra.length > 0) return bad(at, `unknown key ${quote(extra[0])} (use field, op, value)`);
  if (typeof field !== "string" || field === "") return bad(at, "field must be a field id");
  if (typeof op !== "string" || !(WHERE_OPS as readonly string[]).includes(op))
    return bad(at, `op must be one of ${WHERE_OPS.join(", ")}`);
  // an earlier id (`formerly`) names the live field it became (SPEC §23 "Reads show the live ids")
  const id = (lines && [...lines.keys].find(([, keys]) => keys.includes(field))?.[0]) ?? field;
  const live = form.fields.find((f) => f.id === id && f.type !== "statement");
  const retired = live ? undefined : lines?.retired.find((f) => f.id === field);
  const target = live ?? retired;
  if (target) {
    if (!(op === "answered" || op === "unanswered") && isEmptyAnswer(value))
      return bad(at, `${op} needs a value`);
    const keys = live ? (lines?.keys.get(id) ?? [id]) : [field];
    return checkAnswerCondition(at, target, keys, op as WhereOp, value, live ? lines : null);
  }
  if (field === "submitted_at" || field === "version" || field === "lang")
    return checkMeta(at, field, op, value, form);
  const logic = checkLogicCondition(at, form, field, op as WhereOp, value);
  if (logic) return logic;
  const known = form.fields.filter((f) => f.type !== "statement").map((f) => f.id);
  const recorded = [
    ...(form.variables ?? []).map((v) => v.id),
    ...(hasEndings(form) ? ["ending"] : []),
  ];
  return bad(
    at,
    `${quote(field)} is not a field of this form (fields: ${[...known, ...recorded, "submitted_at", "version", "lang"].join(", ")})`,
  );
}

/**
 * A `where` checked against the form and its lineage (earlier ids and option labels through
 * `formerly`): the conditions ready for SQL, or `invalid_request` naming the first bad one.
 */
export function checkWhere(
  form: Form,
  lines: Lineage | null,
  raw: unknown,
): Result<WhereCondition[]> {
  if (raw === undefined || raw === null) return ok([]);
  if (!Array.isArray(raw))
    return fail("invalid_request", "where must be a list of {field, op, value} conditions.");
  if (raw.length > MAX_CONDITIONS)
    return fail("invalid_request", `where takes at most ${MAX_CONDITIONS} conditions.`);
  const out: WhereCondition[] = [];
  for (let i = 0; i < raw.length; i++) {
    const checked = checkCondition(form, lines, raw[i], i);
    if (!checked.ok) return checked;
    out.push(checked.value);
  }
  return ok(out);
}

/** `where` as sent in a query string: a URL-decoded JSON array; absent or empty means none. */
export function parseWhereParam(text: string | undefined): Result<unknown> {
  if (text === undefined || text.trim() === "") return ok(undefined);
  try {
    return ok(JSON.parse(text));
  } catch {
    return fail(
      "invalid_request",
      'where must be a JSON array, e.g. [{"field":"nps","op":"lte","value":6}].',
    );
  }
}
