import { describe, expect, it } from "vitest";
import type { Field, FieldInput, ShowIfOp } from "./field-schema.ts";
import { fieldSchema } from "./schema.ts";
import { deepEqual, isVisible, visibleFields } from "./show-if.ts";

/**
 * Fields parsed one by one, without the form's rules: these tests judge what the page does
 * with any rule, including values the schema refuses to publish (defence in depth).
 */
const fields = (...input: FieldInput[]): Field[] => input.map((f) => fieldSchema.parse(f));

/** A field `b` shown when `a` (of the given shape) compares with `value` by `op`. */
const dependent = (a: FieldInput, op: ShowIfOp, value: unknown): Field =>
  fields(a, { id: "b", type: "text", show_if: { field: "a", op, value } })[1]!;

describe("isVisible, operator by operator", () => {
  const num: FieldInput = { id: "a", type: "number" };
  const table: [ShowIfOp, number, [unknown, boolean][]][] = [
    [
      "gt",
      5,
      [
        [6, true],
        [5, false],
        [4, false],
        [undefined, false],
        ["6", false],
      ],
    ],
    [
      "gte",
      5,
      [
        [6, true],
        [5, true],
        [4, false],
        [undefined, false],
      ],
    ],
    [
      "lt",
      5,
      [
        [4, true],
        [5, false],
        [6, false],
        [undefined, false],
        ["4", false],
      ],
    ],
    [
      "lte",
      5,
      [
        [4, true],
        [5, true],
        [6, false],
        [undefined, false],
      ],
    ],
  ];
  it.each(table)("%s %d", (op, value, cases) => {
    const b = dependent(num, op, value);
    for (const [answer, shown] of cases)
      expect(isVisible(b, answer === undefined ? {} : { a: answer }), String(answer)).toBe(shown);
  });

  it("compares NPS 0 as a number, not as a missing answer", () => {
    const b = dependent({ id: "a", type: "nps" }, "lte", 6);
    expect(isVisible(b, { a: 0 })).toBe(true);
    expect(isVisible(b, { a: 7 })).toBe(false);
    expect(isVisible(dependent({ id: "a", type: "nps" }, "eq", 0), { a: 0 })).toBe(true);
  });

  it("never shows a numeric comparison against a non-numeric rule value", () => {
    expect(isVisible(dependent(num, "gt", "3"), { a: 10 })).toBe(false);
    expect(isVisible(dependent(num, "lt", null), { a: -10 })).toBe(false);
  });

  it("eq: shown only for an equal answer; an unanswered field is never equal", () => {
    const b = dependent({ id: "a", type: "yes_no" }, "eq", "yes");
    expect(isVisible(b, { a: "yes" })).toBe(true);
    expect(isVisible(b, { a: "no" })).toBe(false);
    expect(isVisible(b, {})).toBe(false);
    // even a rule comparing with nothing does not match an absent answer
    expect(isVisible(dependent({ id: "a", type: "text" }, "eq", undefined), {})).toBe(false);
  });

  it("eq compares lists and objects by value", () => {
    const cb: FieldInput = { id: "a", type: "checkbox", options: ["x", "y"] };
    expect(isVisible(dependent(cb, "eq", ["x", "y"]), { a: ["x", "y"] })).toBe(true);
    expect(isVisible(dependent(cb, "eq", ["x", "y"]), { a: ["y", "x"] })).toBe(false);
    expect(isVisible(dependent(cb, "eq", ["x"]), { a: ["x", "y"] })).toBe(false);
  });

  it("neq: shown for a different answer and for no answer", () => {
    const b = dependent({ id: "a", type: "radio", options: ["x", "y"] }, "neq", "x");
    expect(isVisible(b, { a: "y" })).toBe(true);
    expect(isVisible(b, {})).toBe(true);
    expect(isVisible(b, { a: "x" })).toBe(false);
  });

  it("includes / excludes on checkbox answers", () => {
    const cb: FieldInput = { id: "a", type: "checkbox", options: ["x", "y"] };
    const inc = dependent(cb, "includes", "x");
    const exc = dependent(cb, "excludes", "x");
    expect(isVisible(inc, { a: ["y", "x"] })).toBe(true);
    expect(isVisible(inc, { a: ["y"] })).toBe(false);
    expect(isVisible(inc, {})).toBe(false);
    expect(isVisible(exc, { a: ["y", "x"] })).toBe(false);
    expect(isVisible(exc, { a: ["y"] })).toBe(true);
    expect(isVisible(exc, {})).toBe(true);
    // a string is not a list: "xyz" does not "include" x
    expect(isVisible(inc, { a: "xyz" })).toBe(false);
  });

  it("includes on a ranking is true for any of its options once it is answered", () => {
    const rk: FieldInput = { id: "a", type: "ranking", options: ["x", "y"] };
    expect(isVisible(dependent(rk, "includes", "y"), { a: ["x", "y"] })).toBe(true);
    expect(isVisible(dependent(rk, "excludes", "y"), { a: ["x", "y"] })).toBe(false);
  });

  it("a field without show_if is always visible", () => {
    expect(isVisible(fields({ id: "a", type: "text" })[0]!, {})).toBe(true);
  });
});

describe("visibleFields", () => {
  const form = fields(
    { id: "role", type: "radio", options: ["dev", "pm"] },
    {
      id: "lang",
      type: "checkbox",
      options: ["ts", "go"],
      show_if: { field: "role", op: "eq", value: "dev" },
    },
    { id: "ts_years", type: "number", show_if: { field: "lang", op: "includes", value: "ts" } },
    { id: "intro", type: "statement" },
    { id: "always", type: "text" },
  );
  const ids = (answers: Record<string, unknown>) => visibleFields(form, answers).map((f) => f.id);

  it("keeps the form's order", () => {
    expect(ids({ role: "dev", lang: ["ts"] })).toEqual([
      "role",
      "lang",
      "ts_years",
      "intro",
      "always",
    ]);
  });

  it("collapses chains: a field depending on a hidden field is hidden too", () => {
    // lang is hidden (role is pm), so its stale ["ts"] must not reveal ts_years
    expect(ids({ role: "pm", lang: ["ts"] })).toEqual(["role", "intro", "always"]);
    expect(ids({})).toEqual(["role", "intro", "always"]);
  });

  it("does not read answers from the object prototype", () => {
    const f = fields(
      { id: "constructor", type: "text" },
      { id: "b", type: "text", show_if: { field: "constructor", op: "neq", value: "x" } },
      { id: "c", type: "text", show_if: { field: "constructor", op: "eq", value: Object } },
    );
    expect(visibleFields(f, {}).map((x) => x.id)).toEqual(["constructor", "b"]);
    expect(visibleFields(f, { constructor: "x" }).map((x) => x.id)).toEqual(["constructor"]);
  });
});

describe("deepEqual", () => {
  it("compares primitives, lists and objects structurally", () => {
    expect(deepEqual(1, 1)).toBe(true);
    expect(deepEqual("1", 1)).toBe(false);
    expect(deepEqual([1, [2]], [1, [2]])).toBe(true);
    expect(deepEqual([1, 2], [2, 1])).toBe(false);
    expect(deepEqual({ a: 1, b: "x" }, { b: "x", a: 1 })).toBe(true);
    expect(deepEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(deepEqual([], {})).toBe(false);
    expect(deepEqual(["x"], { 0: "x" })).toBe(false);
    expect(deepEqual(null, {})).toBe(false);
  });
});
