import { describe, expect, it } from "vitest";
import type { FieldInput } from "./field-schema.ts";
import { formSchema } from "./schema.ts";
import { validateAnswers } from "./validate-answers.ts";

const form = (...fields: FieldInput[]) => formSchema.parse({ title: "T", slug: "t", fields });
const problems = (f: ReturnType<typeof form>, answers: unknown) => {
  const r = validateAnswers(f, answers);
  return r.ok ? [] : (r.failure.details ?? []);
};

/** For each type: a field, values it accepts, and values it must refuse. */
const CASES: [FieldInput, unknown[], unknown[]][] = [
  [
    { id: "f", type: "text", max_length: 5, min_length: 2 },
    ["ab", "abcde"],
    [1, "a", "abcdef", ["ab"]],
  ],
  [{ id: "f", type: "textarea" }, ["x\ny"], [true, "a".repeat(10_001)]],
  [{ id: "f", type: "email" }, ["a@b.co"], ["a@b", "not an email", 5]],
  [{ id: "f", type: "number", min: 0, max: 10 }, [0, 10, 2.5], [-1, 11, "5", Number.NaN]],
  [
    {
      id: "f",
      type: "radio",
      options: ["a", { label: "b", media: { type: "image", url: "https://x/y.png" } }],
    },
    ["a", "b"],
    ["c", ["a"], 1],
  ],
  [
    { id: "f", type: "checkbox", options: ["a", "b"] },
    [["a"], ["a", "b"]],
    ["a", ["c"], ["a", "a"], [1]],
  ],
  [{ id: "f", type: "select", options: ["a", "b"] }, ["b"], ["z", 0]],
  [
    { id: "f", type: "date", min: "2026-01-01", max: "2026-12-31" },
    ["2026-02-28"],
    ["2026-02-30", "2025-12-31", "2027-01-01", "28/02/2026"],
  ],
  [
    { id: "f", type: "file" },
    ["https://x.example/u/1.pdf", "/api/uploads/a/b"],
    ["javascript alert", 3],
  ],
  [{ id: "f", type: "image" }, ["https://x.example/1.png"], [{ url: "x" }, "no spaces allowed"]],
  [{ id: "f", type: "rating", max: 4 }, [1, 4], [0, 5, 2.5, "3"]],
  [{ id: "f", type: "scale", min: 0, max: 10, step: 2 }, [0, 4, 10], [3, 11, -2]],
  [{ id: "f", type: "nps" }, [0, 7, 10], [-1, 11, 5.5]],
  [{ id: "f", type: "yes_no" }, ["yes", "no"], [true, "Yes", "maybe"]],
  [
    { id: "f", type: "ranking", options: ["a", "b", "c"] },
    [["c", "a", "b"]],
    [["a", "b"], ["a", "b", "b"], ["a", "b", "d"], "a"],
  ],
  [
    {
      id: "f",
      type: "matrix",
      rows: [
        { id: "r1", label: "R1" },
        { id: "r2", label: "R2" },
      ],
      columns: ["x", "y"],
    },
    [{ r1: "x" }, { r1: "y", r2: "x" }],
    [{ r3: "x" }, { r1: "z" }, ["x"], "x"],
  ],
];

describe("validateAnswers, per field type", () => {
  it.each(CASES)(
    "$type accepts its valid values and refuses each wrong one",
    (field, good, bad) => {
      const f = form(field);
      for (const value of good)
        expect(problems(f, { f: value }), JSON.stringify(value)).toEqual([]);
      for (const value of bad) {
        const found = problems(f, { f: value });
        expect(found, JSON.stringify(value)).toHaveLength(1);
        expect(found[0]!.field).toBe("f");
      }
    },
  );

  it("keeps NPS 0 and drops statements and unanswered fields from the payload", () => {
    const f = form(
      { id: "intro", type: "statement", label: "Hi" },
      { id: "n", type: "nps" },
      { id: "t", type: "text" },
    );
    const r = validateAnswers(f, { n: 0, t: "" });
    expect(r.ok && r.value.payload).toEqual({ n: 0 });
    const sent = validateAnswers(f, { intro: "x", n: 3 });
    expect(sent.ok && sent.value.payload).toEqual({ n: 3 });
  });

  it("refuses unknown field ids with the bare id", () => {
    expect(problems(form({ id: "a", type: "text" }), { a: "x", zzz: 1 })).toEqual([
      { field: "zzz", message: "is not a field of this form" },
    ]);
  });

  it("applies required only to visible fields; an empty string or list is no answer", () => {
    const f = form(
      { id: "kind", type: "radio", options: ["person", "company"] },
      {
        id: "company",
        type: "text",
        required: true,
        show_if: { field: "kind", op: "eq", value: "company" },
      },
      { id: "tags", type: "checkbox", options: ["a"], required: true },
    );
    expect(problems(f, { kind: "person", tags: ["a"] })).toEqual([]);
    expect(problems(f, { kind: "company", company: "", tags: [] }).map((d) => d.field)).toEqual([
      "company",
      "tags",
    ]);
  });

  it("never stores a value sent for a field that show_if hides", () => {
    const f = form(
      { id: "n", type: "number" },
      { id: "why", type: "text", show_if: { field: "n", op: "lt", value: 5 } },
    );
    const r = validateAnswers(f, { n: 9, why: "secret" });
    expect(r.ok && r.value.payload).toEqual({ n: 9 });
  });

  it("requires every matrix row when the matrix is required", () => {
    const f = form({
      id: "m",
      type: "matrix",
      required: true,
      rows: [
        { id: "a", label: "A" },
        { id: "b", label: "B" },
      ],
      columns: ["x"],
    });
    expect(problems(f, { m: { a: "x" } })[0]!.message).toContain('"B" has none');
  });

  it("keeps declared hidden URL values under _hidden, and only those", () => {
    const f = formSchema.parse({
      title: "T",
      slug: "t",
      hidden: ["utm_source"],
      fields: [{ id: "a", type: "text" }],
    });
    const r = validateAnswers(f, {}, { utm_source: "x", evil: "y" });
    expect(r.ok && r.value.payload).toEqual({ _hidden: { utm_source: "x" } });
    const plain = validateAnswers(form({ id: "a", type: "text" }), {}, { utm_source: "x" });
    expect(plain.ok && plain.value.payload).toEqual({});
  });

  it("refuses a body whose fields is not an object", () => {
    for (const bad of [null, [], "x", 3])
      expect(validateAnswers(form({ id: "a", type: "text" }), bad).ok).toBe(false);
  });
});
