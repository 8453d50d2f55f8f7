import { describe, expect, it } from "vitest";
import type { Field } from "./field-schema.ts";
import { ignoredAnswers } from "./ignored-answers.ts";
import { validateAnswers } from "./validate-answers.ts";

const fields = [
  { id: "likes", type: "yes_no" },
  { id: "why", type: "text", show_if: { field: "likes", op: "eq", value: "no" } },
  { id: "intro", type: "statement", label: "Thanks" },
  { id: "more", type: "text" },
] as Field[];

const ignored = (answers: Record<string, unknown>) => {
  const result = validateAnswers({ fields }, answers);
  if (!result.ok) throw new Error("invalid");
  return ignoredAnswers(fields, answers, result.value.payload);
};

describe("ignoredAnswers", () => {
  it("names an answer to a field its show_if hides, and one to a statement", () => {
    expect(ignored({ likes: "yes", why: "slow", intro: "x", more: "ok" })).toEqual([
      "why",
      "intro",
    ]);
  });

  it("names nothing when every answer was stored, or the hidden one was left empty", () => {
    expect(ignored({ likes: "no", why: "slow" })).toEqual([]);
    expect(ignored({ likes: "yes", why: "" })).toEqual([]);
  });
});
