// A condition checked where it stands (SPEC §24): every name exists, comes before the condition
// (a variable: every field it reads), and its operator and value fit its type. Anything else
// would be judged false forever and hide a question without a word: an author's error.
import { assertNever } from "../errors.ts";
import type { Field, FieldType } from "../field-schema.ts";
import { optionValue } from "../options.ts";
import { clipList, quote } from "../quote.ts";
import { checkAnswer } from "../validate-answers.ts";
import type { Condition, ConditionOp } from "./condition.ts";
import type { ValueType } from "./expr-types.ts";
import type { Names, Problem } from "./names.ts";

const NUMERIC: readonly FieldType[] = ["number", "rating", "scale", "nps"];
const LISTS: readonly FieldType[] = ["checkbox", "ranking"];

/** The field types each operator may compare. */
export const OP_TYPES: Record<ConditionOp, readonly FieldType[] | "any"> = {
  eq: "any",
  neq: "any",
  gt: NUMERIC,
  lt: NUMERIC,
  gte: NUMERIC,
  lte: NUMERIC,
  includes: LISTS,
  excludes: LISTS,
  contains: ["text", "textarea", "email", ...LISTS],
  answered: "any",
  unanswered: "any",
};

/** The value types each operator may compare (variables, hidden values, the quiz's score). */
const OP_VALUES: Record<ConditionOp, readonly ValueType[] | "any"> = {
  eq: "any",
  neq: "any",
  gt: ["number"],
  lt: ["number"],
  gte: ["number"],
  lte: ["number"],
  includes: ["list"],
  excludes: ["list"],
  contains: ["text", "list"],
  answered: "any",
  unanswered: "any",
};

export interface Place {
  /** Fields at this index or later may not be read (Infinity: an ending reads any). */
  before: number;
  /** Index of the field the condition belongs to (for "cannot depend on itself"). */
  self?: number;
  /** The readable fields, by index (null: the schema could not read it). */
  fields: readonly (Field | null)[];
  names: Names;
}

type Path = (string | number)[];

/** Problems of a condition and the groups nested in it. */
export function checkCondition(c: Condition, at: Path, place: Place, out: Problem[]): void {
  const nested: [string, Condition[]][] = [
    ["all", c.all ?? []],
    ["any", c.any ?? []],
  ];
  for (const [key, list] of nested)
    for (const [k, x] of list.entries()) checkCondition(x, [...at, key, k], place, out);
  if (c.not) checkCondition(c.not, [...at, "not"], place, out);
  if (c.field === undefined || c.op === undefined) return;
  const problem = ruleProblem(c.field, c.op, c.value, place);
  if (problem) out.push({ path: [...at, problem.key], message: problem.message });
}

function ruleProblem(name: string, op: ConditionOp, value: unknown, place: Place) {
  const named = place.names.get(name);
  const field = (message: string) => ({ key: "field", message });
  if (!named) return field(`refers to ${place.names.unknown(name)}`);
  switch (named.kind) {
    case "field": {
      if (named.index === place.self) return field("a field cannot depend on itself");
      if (named.index >= place.before) return field(`refers to ${quote(name)}, which comes later`);
      const target = place.fields[named.index];
      if (!target) return null; // the schema has already reported what is wrong with it
      if (target.type === "statement")
        return field(`refers to ${quote(name)}, a statement, which has no answer`);
      const allowed = OP_TYPES[op];
      if (allowed !== "any" && !allowed.includes(target.type))
        return {
          key: "op",
          message: `"${op}" works on ${allowed.join(", ")} fields, not on ${target.type}`,
        };
      const problem = unreachableValue(target, op, value);
      return problem
        ? {
            key: "value",
            message: `${quote(value)} can never be an answer of ${quote(name)} (${target.type}): ${problem}`,
          }
        : null;
    }
    case "variable": {
      const later = named.reads.find((i) => i >= place.before);
      if (later !== undefined)
        return field(
          `refers to ${quote(name)}, which reads ${quote(place.fields[later]?.id ?? later)}, a later field`,
        );
      return named.type ? typedProblem(name, "variable", named.type, op, value) : null;
    }
    case "hidden":
      return typedProblem(name, "hidden value", "text", op, value);
    case "score":
      if (place.before !== Number.POSITIVE_INFINITY)
        return field("score is known after submitting: read it in an ending's show_if");
      return typedProblem(name, "score", "number", op, value);
    default:
      return assertNever(named);
  }
}

const NOUN: Record<ValueType, string> = {
  number: "a number",
  text: "text",
  boolean: "true or false",
  list: "a list",
  matrix: "a matrix",
};

function typedProblem(
  name: string,
  what: string,
  type: ValueType,
  op: ConditionOp,
  value: unknown,
) {
  const allowed = OP_VALUES[op];
  if (allowed !== "any" && !allowed.includes(type))
    return {
      key: "op",
      message: `"${op}" does not work on ${quote(name)}, a ${what} holding ${NOUN[type]}`,
    };
  if (op === "answered" || op === "unanswered") return null;
  const want: ValueType =
    op === "includes" || op === "excludes" || op === "contains" ? "text" : type;
  const fits =
    (want === "number" && typeof value === "number" && Number.isFinite(value)) ||
    (want === "text" && typeof value === "string") ||
    (want === "boolean" && typeof value === "boolean") ||
    (want === "list" && Array.isArray(value) && value.every((x) => typeof x === "string"));
  return fits
    ? null
    : {
        key: "value",
        message: `${quote(value)} cannot compare with ${quote(name)}, a ${what} holding ${NOUN[type]}`,
      };
}

/**
 * Why no answer of `target` can ever meet a rule's value, or null: `true` for a yes_no (which
 * answers "yes"/"no"), an option that is not among the options, text for a number.
 */
function unreachableValue(target: Field, op: ConditionOp, value: unknown): string | null {
  switch (op) {
    case "eq":
    case "neq":
      return checkAnswer(target, value);
    case "gt":
    case "lt":
    case "gte":
    case "lte":
      return typeof value === "number" && Number.isFinite(value) ? null : "must be a number";
    case "includes":
    case "excludes":
    case "contains": {
      if (op === "contains" && !LISTS.includes(target.type))
        return typeof value === "string" ? null : "must be text";
      const options = "options" in target ? target.options.map(optionValue) : [];
      return typeof value === "string" && options.includes(value)
        ? null
        : `must be one of: ${clipList(options)}`;
    }
    case "answered":
    case "unanswered":
      return null;
    default:
      return assertNever(op);
  }
}
