import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formSchema } from "./schema.ts";
import { validateAnswers } from "./validate-answers.ts";

const form = formSchema.parse({
  title: "P",
  slug: "p",
  fields: [
    { id: "n", type: "number", min: -50, max: 50 },
    { id: "r", type: "rating", max: 7 },
    { id: "s", type: "scale", min: 0, max: 10, step: 2 },
    { id: "nps", type: "nps" },
    { id: "c", type: "checkbox", options: ["a", "b", "c"] },
    { id: "k", type: "ranking", options: ["x", "y", "z"] },
    { id: "y", type: "yes_no" },
    { id: "t", type: "text", max_length: 20 },
  ],
});

/** Answers every field validly. */
const valid = fc.record({
  n: fc.integer({ min: -50, max: 50 }),
  r: fc.integer({ min: 1, max: 7 }),
  s: fc.integer({ min: 0, max: 5 }).map((k) => k * 2),
  nps: fc.integer({ min: 0, max: 10 }),
  c: fc.subarray(["a", "b", "c"], { minLength: 1 }),
  k: fc.shuffledSubarray(["x", "y", "z"], { minLength: 3, maxLength: 3 }),
  y: fc.constantFrom("yes", "no"),
  t: fc.string({ minLength: 1, maxLength: 20 }),
});

/** One way to break one answer, and the field it breaks. */
const mutation = fc.constantFrom<[string, (a: Record<string, unknown>) => unknown]>(
  ["n", () => 51],
  ["n", () => "5"],
  ["r", () => 0],
  ["r", () => 3.5],
  ["s", () => 3],
  ["nps", () => 11],
  ["c", () => ["d"]],
  ["c", (a) => [...(a.c as string[]), (a.c as string[])[0]]],
  ["k", (a) => (a.k as string[]).slice(1)],
  ["y", () => "maybe"],
  ["t", () => "x".repeat(21)],
);

describe("answer validation properties", () => {
  it("accepts every generated valid answer set, unchanged", () => {
    fc.assert(
      fc.property(valid, (answers) => {
        const r = validateAnswers(form, answers);
        expect(r.ok && r.value.payload).toEqual(answers);
      }),
    );
  });

  it("refuses any single mutation, naming exactly the mutated field", () => {
    fc.assert(
      fc.property(valid, mutation, (answers, [field, mutate]) => {
        const r = validateAnswers(form, { ...answers, [field]: mutate(answers) });
        expect(r.ok).toBe(false);
        expect(!r.ok && r.failure.details!.map((d) => d.field)).toEqual([field]);
      }),
    );
  });
});
