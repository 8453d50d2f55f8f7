import { describe, expect, it } from "vitest";
import { answerLines } from "./answer-text.ts";
import type { Field } from "./field-schema.ts";

const matrix = {
  id: "aspects",
  type: "matrix",
  label: "Aspects",
  rows: [
    { id: "speed", label: "Speed" },
    { id: "docs", label: "Documentation" },
  ],
  columns: ["Poor", "Good"],
} as Field;

describe("answerLines", () => {
  it("writes a matrix answer one row per line, in the form's row order", () => {
    expect(answerLines(matrix, { docs: "Poor", speed: "Good" })).toEqual([
      "Speed: Good",
      "Documentation: Poor",
    ]);
  });

  it("numbers a ranking and joins a checkbox answer", () => {
    const ranking = { id: "r", type: "ranking", label: "R", options: ["a", "b"] } as Field;
    expect(answerLines(ranking, ["b", "a"])).toEqual(["1. b", "2. a"]);
    const checkbox = { id: "c", type: "checkbox", label: "C", options: ["x", "y"] } as Field;
    expect(answerLines(checkbox, ["x", "y"])).toEqual(["x, y"]);
  });

  it("has no lines for an unanswered field", () => {
    expect(answerLines(matrix, undefined)).toEqual([]);
    expect(answerLines(matrix, "")).toEqual([]);
  });
});
