// `where` on what the logic recorded (SPEC §24): a variable's value (`{field: "total", op: "gt",
// value: 1000}`) and the ending reached (`{field: "ending", op: "eq", value: "sales"}`), checked
// against the form like an answer: an op the variable's type cannot take, or an ending the form
// does not have, is refused naming it.
import { fail, ok, type Result } from "../errors.ts";
import type { ValueType } from "../logic/expr-types.ts";
import { nameTable } from "../logic/names.ts";
import { hasEndings } from "../logic/respond.ts";
import { quote } from "../quote.ts";
import type { Form } from "../schema.ts";
import { storableText } from "./values.ts";
import type { WhereCondition, WhereOp } from "./where.ts";

const OPS: Record<ValueType, WhereOp[]> = {
  number: ["eq", "neq", "gt", "lt", "gte", "lte", "answered", "unanswered"],
  text: ["eq", "neq", "contains", "answered", "unanswered"],
  boolean: ["eq", "neq"],
  list: ["includes", "excludes", "answered", "unanswered"],
  matrix: ["answered", "unanswered"],
};

const bad = (at: string, message: string): Result<WhereCondition> =>
  fail("invalid_request", `${at}: ${message}`, { details: [{ field: at, message }] });

/** The endings a response of this form may record. */
export function endingIds(form: Form): string[] {
  const quiz = form.type === "quiz" ? ["pass", "fail"] : [];
  return [...(form.endings ?? []).map((e) => e.id), ...quiz, "default"];
}

/** A condition on a variable or the ending, or null when `field` names neither. */
export function checkLogicCondition(
  at: string,
  form: Form,
  field: string,
  op: WhereOp,
  value: unknown,
): Result<WhereCondition> | null {
  if (field === "ending" && hasEndings(form)) {
    if (op !== "eq" && op !== "neq") return bad(at, "ending takes eq or neq");
    const ids = endingIds(form);
    if (typeof value !== "string" || !ids.includes(value))
      return bad(at, `${quote(value)} is not an ending of this form (${ids.join(", ")})`);
    return ok({ on: "ending", field: "ending", op, value });
  }
  const named = nameTable({ ...form, hidden: form.hidden }, []).get(field);
  if (named?.kind !== "variable" || named.type === null) return null;
  const type = named.type;
  if (!OPS[type].includes(op))
    return bad(
      at,
      `${field} (a variable holding ${type}) cannot take ${op}; it takes ${OPS[type].join(", ")}`,
    );
  if (op === "answered" || op === "unanswered")
    return ok({
      on: "answer",
      field,
      type: "text",
      keys: [field],
      op,
      value: null,
      matches: [],
      column: "variables",
    });
  // text as the database holds it: a lone surrogate was a 500 from the statement (SPEC §19)
  const fits =
    op === "includes" || op === "excludes" || op === "contains"
      ? typeof value === "string" && value !== "" && value.length <= 200 && storableText(value)
      : type === "number"
        ? typeof value === "number" && Number.isFinite(value)
        : type === "boolean"
          ? typeof value === "boolean"
          : typeof value === "string" && storableText(value);
  if (!fits)
    return bad(at, `${quote(value)} cannot compare with ${field}, a variable holding ${type}`);
  return ok({
    on: "answer",
    field,
    type: type === "number" ? "number" : "text",
    keys: [field],
    op,
    value,
    matches: op === "includes" || op === "excludes" ? [value] : [value],
    column: "variables",
  });
}
