// Conditions (SPEC §24): a rule `{field, op, value}` or a group `{all: […]}`, `{any: […]}`,
// `{not: …}`, nested. `field` names an answer, a variable or `hidden.<name>`. The schema refuses
// a malformed condition when the form is read, so every one reaching here has one shape.
import { plainHolds } from "../show-if.ts";
import { isEmptyAnswer } from "../validate-answers.ts";
import type { Read } from "./expr-eval.ts";

export const CONDITION_OPS = [
  "eq",
  "neq",
  "gt",
  "lt",
  "gte",
  "lte",
  "includes",
  "excludes",
  "contains",
  "answered",
  "unanswered",
] as const;
export type ConditionOp = (typeof CONDITION_OPS)[number];

/** One condition; exactly one of its shapes is given (the schema checks it). */
export interface Condition {
  field?: string | undefined;
  op?: ConditionOp | undefined;
  value?: unknown;
  all?: Condition[] | undefined;
  any?: Condition[] | undefined;
  not?: Condition | undefined;
}

/** Whether one rule holds for a value (null: unanswered, which meets neq, excludes, unanswered). */
export function ruleHolds(op: ConditionOp, answer: unknown, value: unknown): boolean {
  const given = answer === null ? undefined : answer;
  switch (op) {
    case "contains":
      // a list holds the option; a text holds the value, whatever its case
      if (Array.isArray(given)) return plainHolds("includes", given, value);
      return typeof given === "string" && given.toLowerCase().includes(String(value).toLowerCase());
    case "answered":
      return !isEmptyAnswer(given);
    case "unanswered":
      return isEmptyAnswer(given);
    default:
      return plainHolds(op, given, value);
  }
}

/** Whether a condition holds, reading answers, variables and hidden values through `read`. */
export function holds(c: Condition, read: Read): boolean {
  if (c.all) return c.all.every((x) => holds(x, read));
  if (c.any) return c.any.some((x) => holds(x, read));
  if (c.not) return !holds(c.not, read);
  return ruleHolds(c.op!, read(c.field!), c.value);
}

/** Every name a condition reads, in order. */
export function conditionRefs(c: Condition, into: string[] = []): string[] {
  for (const x of c.all ?? c.any ?? (c.not ? [c.not] : [])) conditionRefs(x, into);
  if (c.field !== undefined && !into.includes(c.field)) into.push(c.field);
  return into;
}
