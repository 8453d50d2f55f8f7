import { describe, expect, it } from "vitest";
import { lineage } from "../plan/lineage.ts";
import { reportLocale } from "../report-locale.ts";
import { type Form, formSchema } from "../schema.ts";
import { describeSegment } from "./describe.ts";
import { checkWhere, parseWhereParam, type WhereCondition } from "./where.ts";

const form = (fields: unknown[]): Form =>
  formSchema.parse({ title: "NPS", slug: "nps", locale: "en", fields }) as Form;

const v1 = form([
  { id: "score", type: "nps", label: "Recommend?" },
  { id: "why", type: "textarea", label: "Why?" },
  { id: "plan", type: "radio", label: "Plan", options: ["Free", "Team"] },
]);
const v2 = form([
  { id: "recommend", type: "nps", label: "Recommend?", formerly: ["score"] },
  { id: "why", type: "textarea", label: "Why?" },
  {
    id: "plan",
    type: "radio",
    label: "Plan",
    options: ["Free", { label: "Pro", formerly: ["Team"] }],
  },
  { id: "uses", type: "checkbox", label: "Uses", options: ["Billing", "Reports"] },
  { id: "when", type: "date", label: "When" },
  { id: "ok", type: "yes_no", label: "OK?" },
  { id: "cv", type: "file", label: "CV" },
]);
const lines = lineage(v2, [v1]);

const check = (where: unknown) => checkWhere(v2, lines, where);
const first = (where: unknown): WhereCondition => {
  const r = check(where);
  if (!r.ok) throw new Error(r.failure.error);
  return r.value[0]!;
};
const problem = (where: unknown) => {
  const r = check(where);
  return r.ok ? null : r.failure;
};

describe("checkWhere", () => {
  it("reads a renamed field under every id its answers were stored under", () => {
    expect(first([{ field: "recommend", op: "lte", value: 6 }])).toMatchObject({
      on: "answer",
      keys: ["recommend", "score"],
      value: 6,
    });
  });

  it("takes a renamed field's earlier id as the live field", () => {
    expect(first([{ field: "score", op: "lte", value: 6 }])).toMatchObject({
      field: "recommend",
      keys: ["recommend", "score"],
    });
  });

  it("matches an option in the form's own terms, ignoring case, and its earlier labels", () => {
    expect(first([{ field: "plan", op: "eq", value: "pro" }])).toMatchObject({
      value: "Pro",
      matches: ["Pro", "Team"],
    });
    expect(first([{ field: "plan", op: "eq", value: "Team" }])).toMatchObject({ value: "Pro" });
    expect(first([{ field: "uses", op: "includes", value: "billing" }])).toMatchObject({
      value: "Billing",
    });
  });

  it("takes true and false for a yes/no question", () => {
    expect(first([{ field: "ok", op: "eq", value: true }])).toMatchObject({ value: "yes" });
  });

  it("takes submitted_at, version and lang", () => {
    expect(first([{ field: "submitted_at", op: "gte", value: "2026-11-01" }])).toMatchObject({
      value: "2026-11-01T00:00:00.000Z",
    });
    expect(first([{ field: "version", op: "eq", value: 2 }])).toMatchObject({ on: "version" });
    expect(first([{ field: "lang", op: "eq", value: "de" }])).toMatchObject({ own: "en" });
  });

  it("names the condition with an unknown field, and lists the fields", () => {
    const f = problem([
      { field: "recommend", op: "answered" },
      { field: "nope", op: "eq", value: 1 },
    ]);
    expect(f?.code).toBe("invalid_request");
    expect(f?.error).toMatch(
      /^where\[1\]: "nope" is not a field of this form \(fields: recommend, why/,
    );
    expect(f?.details).toEqual([{ field: "where[1]", message: expect.any(String) }]);
  });

  it("refuses an op the field's type cannot take, saying which it takes", () => {
    expect(problem([{ field: "why", op: "lte", value: 6 }])?.error).toBe(
      "where[0]: why (textarea) cannot take lte; it takes eq, neq, contains, answered, unanswered",
    );
    expect(problem([{ field: "cv", op: "eq", value: "x" }])?.error).toMatch(/cannot take eq/);
    expect(problem([{ field: "lang", op: "gt", value: "de" }])?.error).toMatch(/lang takes eq/);
  });

  it("refuses a value no answer can have", () => {
    expect(problem([{ field: "recommend", op: "eq", value: 11 }])?.error).toMatch(/from 0 to 10/);
    expect(problem([{ field: "recommend", op: "lt", value: "6" }])?.error).toMatch(/not a number/);
    expect(problem([{ field: "plan", op: "eq", value: "Gold" }])?.error).toMatch(/Free, Pro/);
    expect(problem([{ field: "uses", op: "includes", value: "x" }])?.error).toMatch(/options/);
    expect(problem([{ field: "when", op: "gt", value: "tomorrow" }])?.error).toMatch(/YYYY-MM-DD/);
    expect(problem([{ field: "why", op: "contains", value: "" }])?.error).toMatch(
      /contains needs a value/,
    );
    expect(problem([{ field: "submitted_at", op: "gt", value: "yesterday" }])?.error).toMatch(
      /ISO/,
    );
    expect(problem([{ field: "version", op: "eq", value: 0 }])?.error).toMatch(/version number/);
    expect(problem([{ field: "lang", op: "eq", value: "'; drop" }])?.error).toMatch(/language/);
  });

  it("refuses what is not a list of {field, op, value}", () => {
    expect(problem({ field: "x" })?.error).toMatch(/must be a list/);
    expect(problem([1])?.error).toMatch(/^where\[0\]: must be an object/);
    expect(problem([{ field: "why", op: "like", value: "a" }])?.error).toMatch(/op must be one of/);
    expect(problem([{ field: "why", op: "eq", value: "a", extra: 1 }])?.error).toMatch(/extra/);
    expect(
      problem(Array.from({ length: 21 }, () => ({ field: "why", op: "answered" }))),
    ).not.toBeNull();
  });

  it("reads a query parameter's JSON, and says how to write it when it is not JSON", () => {
    expect(parseWhereParam(undefined)).toEqual({ ok: true, value: undefined });
    expect(parseWhereParam('[{"field":"a"}]')).toEqual({ ok: true, value: [{ field: "a" }] });
    const r = parseWhereParam("recommend<=6");
    expect(r.ok ? null : r.failure.code).toBe("invalid_request");
  });
});

describe("describeSegment", () => {
  it("says which responses a segment counts, in the report's language", () => {
    const r = check([
      { field: "recommend", op: "lte", value: 6 },
      { field: "why", op: "contains", value: "billing" },
    ]);
    if (!r.ok) throw new Error(r.failure.error);
    expect(describeSegment(r.value, 7, reportLocale("en"))).toBe(
      "7 responses where recommend ≤ 6 and why contains “billing”",
    );
    expect(describeSegment(r.value, 1, reportLocale("de"))).toBe(
      "1 Antwort, bei der recommend ≤ 6 und why enthält “billing”",
    );
  });
});
