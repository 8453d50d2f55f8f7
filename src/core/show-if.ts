import { assertNever } from "./errors.ts";
import type { Field, ShowIfOp } from "./field-schema.ts";

export type Answers = Record<string, unknown>;

/** The answer sent for an id: own keys only, so `constructor` or `to_string` never reads the prototype. */
export const answerOf = (answers: Answers, id: string): unknown =>
  Object.hasOwn(answers, id) ? answers[id] : undefined;

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (
    a &&
    b &&
    typeof a === "object" &&
    typeof b === "object" &&
    !Array.isArray(a) &&
    !Array.isArray(b)
  ) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    const ra = a as Record<string, unknown>;
    const rb = b as Record<string, unknown>;
    return ka.length === kb.length && ka.every((k) => deepEqual(ra[k], rb[k]));
  }
  return false;
}

const num = (v: unknown): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

/**
 * Whether a rule of the first eight operators holds for an answer. An unanswered field
 * (undefined) satisfies `neq` and `excludes` and nothing else. The schema rejects rules that
 * point forward or compare types an operator does not support, so every rule here is meaningful.
 * (logic/condition.ts adds the other operators and the groups, for the forms that use them.)
 */
export function plainHolds(op: ShowIfOp, answer: unknown, value: unknown): boolean {
  switch (op) {
    case "eq":
      return answer !== undefined && deepEqual(answer, value);
    case "neq":
      return !deepEqual(answer, value);
    case "gt":
    case "lt":
    case "gte":
    case "lte": {
      const a = num(answer);
      const b = num(value);
      if (a === null || b === null) return false;
      if (op === "gt") return a > b;
      if (op === "lt") return a < b;
      if (op === "gte") return a >= b;
      return a <= b;
    }
    case "includes":
      return Array.isArray(answer) && answer.some((x) => deepEqual(x, value));
    case "excludes":
      return !(Array.isArray(answer) && answer.some((x) => deepEqual(x, value)));
    default:
      return assertNever(op);
  }
}

/**
 * Whether a field is shown for these answers, on a form whose conditions are plain rules on
 * fields (a form with groups, jumps or variables is walked by logic/walk.ts instead).
 */
export function isVisible(field: Field, answers: Answers): boolean {
  const rule = field.show_if as { field: string; op: ShowIfOp; value: unknown } | undefined;
  return !rule || plainHolds(rule.op, answerOf(answers, rule.field), rule.value);
}

/**
 * The fields shown for these answers, in order. A field whose condition refers to a hidden
 * field is judged as if that field had no answer (its value is never kept), so chains collapse.
 */
export function visibleFields(fields: readonly Field[], answers: Answers): Field[] {
  const kept: Answers = {};
  const shown: Field[] = [];
  for (const field of fields) {
    if (!isVisible(field, kept)) continue;
    shown.push(field);
    const answer = answerOf(answers, field.id);
    if (answer !== undefined) kept[field.id] = answer;
  }
  return shown;
}

export { deepEqual };
