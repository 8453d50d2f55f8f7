import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type FormInput, formSchema } from "../schema.ts";
import { visibleFields } from "../show-if.ts";
import { usesLogic } from "./uses-logic.ts";
import { walk } from "./walk.ts";

const form = (input: Omit<FormInput, "title" | "slug">) =>
  formSchema.parse({ title: "T", slug: "t", ...input });
const ids = (fields: readonly { id: string }[]) => fields.map((f) => f.id);

const pricing = form({
  hidden: ["ref"],
  variables: [
    { id: "total", value: "seats * price" },
    { id: "big", value: "total >= 1000" },
  ],
  endings: [
    {
      id: "sales",
      show_if: {
        any: [
          { field: "plan", op: "eq", value: "Enterprise" },
          { field: "total", op: "gt", value: 5000 },
        ],
      },
      title: "Talk to sales",
    },
    { id: "thanks", title: "Thanks {var:total}" },
  ],
  fields: [
    {
      id: "plan",
      type: "radio",
      options: ["Team", { label: "Enterprise", goto: "contact" }],
      step: "Plan",
    },
    { id: "seats", type: "number", step: "Plan" },
    { id: "price", type: "number", step: "Plan" },
    {
      id: "why",
      type: "textarea",
      step: "Details",
      show_if: {
        all: [
          { field: "big", op: "eq", value: true },
          { not: { field: "hidden.ref", op: "eq", value: "partner" } },
        ],
      },
    },
    { id: "note", type: "text", step: "Details" },
    { id: "contact", type: "email", step: "Contact" },
  ],
});

describe("walk: the respondent's path", () => {
  it("shows a group's field when all of it holds, reading variables and hidden values", () => {
    const path = walk(pricing, { plan: "Team", seats: 100, price: 20 }, { ref: "web" });
    expect(ids(path.shown)).toEqual(["plan", "seats", "price", "why", "note", "contact"]);
    expect(path.variables).toEqual({ total: 2000, big: true });
    expect(path.ending).toBe("thanks");
    const partner = walk(pricing, { plan: "Team", seats: 100, price: 20 }, { ref: "partner" });
    expect(ids(partner.shown)).not.toContain("why");
  });

  it("jumps forward from a chosen option, skipping the pages between", () => {
    const path = walk(pricing, { plan: "Enterprise", seats: 1, price: 1, note: "x" });
    expect(ids(path.shown)).toEqual(["plan", "seats", "price", "contact"]);
    expect(path.pages).toEqual([0, 2]);
    // the skipped page's answer is not kept: nothing reads it
    expect(path.ending).toBe("sales");
  });

  it("chooses the first ending whose condition holds, the one without a condition last", () => {
    expect(walk(pricing, { plan: "Team", seats: 300, price: 20 }).ending).toBe("sales");
    expect(walk(pricing, { plan: "Team", seats: 3, price: 20 }).ending).toBe("thanks");
  });

  it("finishes at an ending a field jumps to; the rest of its page still shows", () => {
    const f = form({
      endings: [{ id: "early", title: "Bye" }],
      fields: [
        { id: "b0", type: "text", step: 1 },
        {
          id: "a",
          type: "yes_no",
          step: 1,
          goto: "early",
          show_if: { field: "b0", op: "answered" },
        },
        { id: "c", type: "text", step: 2 },
      ],
    });
    expect(ids(walk(f, { b0: "x" }).shown)).toEqual(["b0", "a"]);
    expect(walk(f, { b0: "x" }).ending).toBe("early");
    expect(ids(walk(f, {}).shown)).toEqual(["b0", "c"]);
  });

  it("skips a page whose step condition fails", () => {
    const f = form({
      steps: [{ id: "More", show_if: { field: "more", op: "eq", value: "yes" } }],
      fields: [
        { id: "more", type: "yes_no", step: "Start" },
        { id: "detail", type: "text", step: "More" },
        { id: "end", type: "text", step: "End" },
      ],
    });
    expect(ids(walk(f, { more: "no", detail: "kept?" }).shown)).toEqual(["more", "end"]);
    expect(ids(walk(f, { more: "yes" }).shown)).toEqual(["more", "detail", "end"]);
  });

  it("ends a quiz at pass or fail by its score, as the score's passed says", () => {
    const quiz = form({
      type: "quiz",
      quiz: {
        pass_percent: 60,
        pass_ending: { title: "Passed" },
        fail_ending: { title: "Failed" },
      },
      fields: [
        { id: "a", type: "yes_no", answer: "yes", points: 2 },
        { id: "b", type: "yes_no", answer: "no" },
      ],
    });
    expect(walk(quiz, { a: "yes" }).ending).toBe("pass");
    expect(walk(quiz, { b: "no" }).ending).toBe("fail");
  });

  it("judges plain show_if rules exactly as the page's entry does (visibleFields)", () => {
    const op = fc.constantFrom("eq", "neq", "gt", "lt", "gte", "lte", "includes", "excludes");
    const answer = fc.oneof(
      fc.constant(undefined),
      fc.integer({ min: 0, max: 3 }).map(String),
      fc.integer({ min: 0, max: 3 }),
      fc.subarray(["0", "1", "2"], { minLength: 1 }),
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(op, fc.integer({ min: 0, max: 5 }), answer, fc.integer({ min: 0, max: 3 })),
          { minLength: 1, maxLength: 6 },
        ),
        (spec) => {
          const fields = spec.map(([o, ref, , v], i) => ({
            id: `f${i}`,
            type: "text" as const,
            ...(i > 0
              ? {
                  show_if: {
                    field: `f${ref % i}`,
                    op: o,
                    value: o === "includes" || o === "excludes" ? String(v) : v,
                  },
                }
              : {}),
          }));
          const parsed = {
            type: "form",
            fields: fields.map((f) => ({ required: false, points: 1, max_length: 10_000, ...f })),
          } as never;
          const answers = Object.fromEntries(
            spec.map(([, , a], i) => [`f${i}`, a]).filter(([, a]) => a !== undefined),
          );
          expect(usesLogic(parsed)).toBe(false);
          expect(ids(walk(parsed, answers).shown)).toEqual(
            ids(visibleFields((parsed as { fields: never }).fields, answers)),
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});
