import { describe, expect, it } from "vitest";
import type { FormInput } from "../schema.ts";
import { validateForm } from "../validate-form.ts";

const problems = (input: Omit<FormInput, "title" | "slug">) => {
  const result = validateForm({ title: "T", slug: "t", ...input });
  return result.ok ? [] : result.failure.details!;
};
const fields: FormInput["fields"] = [
  { id: "plan", type: "radio", options: ["Team", "Enterprise"], step: "One" },
  { id: "seats", type: "number", step: "One" },
  { id: "why", type: "text", step: "Two" },
  { id: "last", type: "text", step: "Three" },
];

describe("the logic rules (SPEC §24), each at its key", () => {
  it("accepts groups, jumps, endings and variables that fit", () => {
    expect(
      problems({
        hidden: ["ref"],
        variables: [{ id: "total", value: "seats * 10" }],
        endings: [
          { id: "big", show_if: { field: "total", op: "gt", value: 100 }, title: "Big" },
          { id: "rest", title: "Thanks" },
        ],
        steps: [
          {
            id: "Two",
            show_if: {
              any: [
                { field: "hidden.ref", op: "contains", value: "x" },
                { not: { field: "seats", op: "unanswered" } },
              ],
            },
          },
        ],
        fields: [
          { ...fields[0]!, options: ["Team", { label: "Enterprise", goto: "Three" }] } as never,
          ...fields.slice(1),
        ],
      }),
    ).toEqual([]);
  });

  it("refuses unknown ids: in conditions, expressions, hidden values and jumps", () => {
    expect(
      problems({
        variables: [{ id: "total", value: "seats * rate" }],
        fields: [
          fields[0]!,
          {
            ...fields[1]!,
            show_if: {
              all: [
                { field: "nope", op: "answered" },
                { field: "hidden.utm", op: "eq", value: "x" },
              ],
            },
          },
          { ...fields[2]!, goto: "nowhere" },
          fields[3]!,
        ],
      }),
    ).toEqual([
      {
        field: "variables[0].value",
        message: 'column 9: reads "rate", which is not a field or variable of this form',
      },
      {
        field: "fields[1].show_if.all[0].field",
        message: 'refers to "nope", which is not a field or variable of this form',
      },
      {
        field: "fields[1].show_if.all[1].field",
        message: 'refers to hidden.utm, but "utm" is not listed in hidden',
      },
      {
        field: "fields[2].goto",
        message: '"nowhere" is not a step, a field that opens a page, or an ending of this form',
      },
    ]);
  });

  it("refuses variables that read each other in a cycle", () => {
    expect(
      problems({
        variables: [
          { id: "a", value: "b + 1" },
          { id: "b", value: "a * 2" },
        ],
        fields,
      }),
    ).toEqual([
      { field: "variables[0].value", message: "variables read each other in a cycle: a → b → a" },
    ]);
  });

  it("refuses a condition on a later field, directly or through a variable", () => {
    expect(
      problems({
        variables: [{ id: "late", value: "len(last)" }],
        fields: [
          fields[0]!,
          { ...fields[1]!, show_if: { field: "why", op: "answered" } },
          { ...fields[2]!, show_if: { field: "late", op: "gt", value: 2 } },
          fields[3]!,
        ],
      }),
    ).toEqual([
      { field: "fields[1].show_if.field", message: 'refers to "why", which comes later' },
      {
        field: "fields[2].show_if.field",
        message: 'refers to "late", which reads "last", a later field',
      },
    ]);
  });

  it("refuses types that cannot compare", () => {
    expect(
      problems({
        variables: [
          { id: "label", value: "plan + '!'" },
          { id: "bad", value: "plan * seats" },
        ],
        fields: [
          fields[0]!,
          { ...fields[1]!, show_if: { field: "label", op: "gt", value: 3 } },
          { ...fields[2]!, show_if: { field: "plan", op: "contains", value: "Te" } },
          { ...fields[3]!, show_if: { field: "seats", op: "eq", value: "many" } },
        ],
      }),
    ).toEqual([
      { field: "variables[1].value", message: 'column 6: "*" needs numbers, not text' },
      {
        field: "fields[1].show_if.op",
        message: '"gt" does not work on "label", a variable holding text',
      },
      {
        field: "fields[2].show_if.op",
        message:
          '"contains" works on text, textarea, email, checkbox, ranking fields, not on radio',
      },
      {
        field: "fields[3].show_if.value",
        message: '"many" can never be an answer of "seats" (number): must be a number',
      },
    ]);
  });

  it("refuses a jump backwards or to its own page", () => {
    expect(
      problems({
        fields: [
          fields[0]!,
          fields[1]!,
          { ...fields[2]!, goto: "One" },
          { ...fields[3]!, goto: "Three" },
        ],
      }),
    ).toEqual([
      {
        field: "fields[2].goto",
        message: 'jumps go forward only: "One" is not after this field\'s page',
      },
      {
        field: "fields[3].goto",
        message: 'jumps go forward only: "Three" is not after this field\'s page',
      },
    ]);
  });

  it("refuses a page and an ending no path reaches", () => {
    expect(
      problems({
        endings: [
          { id: "out", title: "Out" },
          { id: "never", show_if: { field: "seats", op: "gt", value: 1 }, title: "Never" },
        ],
        fields: [
          fields[0]!,
          { ...fields[1]!, goto: "Three" },
          fields[2]!,
          { ...fields[3]!, goto: "out" },
        ],
      }),
    ).toEqual([
      {
        field: "endings[0]",
        message:
          "an ending without show_if is the one left when no other holds: put it last (only one)",
      },
      { field: "fields[2].step", message: "this page is never reached: every path jumps past it" },
      {
        field: "endings[1]",
        message: 'ending "never" is never reached: every path jumps to another ending',
      },
    ]);
  });

  it("keeps ending ids distinct and unreserved, and one fallback", () => {
    expect(
      problems({
        ending: { title: "Old" },
        endings: [
          { id: "pass", show_if: { field: "seats", op: "gt", value: 1 } },
          { id: "pass", show_if: { field: "seats", op: "lt", value: 1 } },
          { id: "all" },
        ],
        fields,
      }),
    ).toEqual([
      {
        field: "endings[0].id",
        message: '"pass" is kept for the form\'s own endings; name it otherwise',
      },
      { field: "endings[1].id", message: '"pass" is already the id of endings[0]' },
      {
        field: "endings[1].id",
        message: '"pass" is kept for the form\'s own endings; name it otherwise',
      },
      { field: "ending", message: "endings already has one without show_if; keep one of the two" },
    ]);
  });

  it("refuses a malformed condition shape at the condition", () => {
    expect(
      problems({
        fields: [fields[0]!, { ...fields[1]!, show_if: { all: [{ field: "plan" }] } as never }],
      }),
    ).toEqual([{ field: "fields[1].show_if.all[0].op", message: "is required" }]);
    expect(
      problems({
        fields: [
          fields[0]!,
          { ...fields[1]!, show_if: { any: [], field: "plan", op: "answered" } as never },
        ],
      }),
    ).toEqual([
      { field: "fields[1].show_if.any", message: "must have at least 1 item" },
      {
        field: "fields[1].show_if",
        message:
          "a condition is {field, op, value} or one group: {all: […]}, {any: […]} or {not: …}",
      },
    ]);
    expect(
      problems({
        fields: [
          fields[0]!,
          { ...fields[1]!, show_if: { field: "plan", op: "answered", value: 1 } },
        ],
      }),
    ).toEqual([{ field: "fields[1].show_if.value", message: '"answered" takes no value' }]);
  });

  it("reads score only in a quiz's endings", () => {
    expect(
      problems({
        type: "quiz",
        endings: [{ id: "top", show_if: { field: "score", op: "gte", value: 2 } }],
        variables: [{ id: "double", value: "score * 2" }],
        fields: [
          { id: "q", type: "yes_no", answer: "yes" },
          { id: "r", type: "text", show_if: { field: "score", op: "gt", value: 0 } },
        ],
      }),
    ).toEqual([
      {
        field: "variables[0].value",
        message: "column 1: score is known after submitting: read it in an ending's show_if",
      },
      {
        field: "fields[1].show_if.field",
        message: "score is known after submitting: read it in an ending's show_if",
      },
    ]);
  });
});

describe("{var:<id>} piping", () => {
  it("pipes a declared variable, in a field's texts from its own page or earlier", () => {
    const base = {
      variables: [{ id: "total", value: "seats * 10" }],
      fields: [
        { id: "seats", type: "number" as const, step: 1 },
        { id: "sum", type: "statement" as const, label: "Total: {var:total}", step: 1 },
      ],
    };
    expect(problems(base)).toEqual([]);
    expect(
      problems({
        ...base,
        endings: [{ id: "done", title: "{var:totl}" }],
        fields: [
          { id: "first", type: "statement", label: "{var:total}", step: 1 },
          { id: "seats", type: "number", step: 2 },
        ],
      }),
    ).toEqual([
      {
        field: "fields[0].label",
        message: 'pipes {var:total}, which reads "seats" on a later page',
      },
      {
        field: "endings[0].title",
        message: "pipes {var:totl}, which is not a variable of this form",
      },
    ]);
  });
});
