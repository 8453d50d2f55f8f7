import { describe, expect, it } from "vitest";
import { dropoffFunnel } from "./dropoff.ts";
import type { Field } from "./field-schema.ts";

const fields = [
  { id: "a", type: "text", label: "A" },
  { id: "intro", type: "statement", label: "Intro" },
  { id: "b", type: "text", label: "B" },
  { id: "c", type: "text", label: "C" },
] as Field[];

describe("dropoffFunnel", () => {
  it("counts the respondents whose page reached each question, in form order without statements", () => {
    const reached = new Map([
      ["a", 9],
      ["intro", 9],
      ["b", 6],
      ["c", 4],
    ]);
    const answered = new Map([
      ["a", 4],
      ["b", 3],
      ["c", 1],
    ]);
    expect(dropoffFunnel(fields, reached, answered)).toEqual([
      { field: "a", reached: 9, answered: 4 },
      { field: "b", reached: 6, answered: 3 },
      { field: "c", reached: 4, answered: 1 },
    ]);
  });

  it("counts an answer that came without a page as having reached its question", () => {
    const answered = new Map([
      ["a", 2],
      ["b", 1],
    ]);
    expect(dropoffFunnel(fields, new Map([["a", 1]]), answered)).toEqual([
      { field: "a", reached: 2, answered: 2 },
      { field: "b", reached: 1, answered: 1 },
      { field: "c", reached: 0, answered: 0 },
    ]);
  });
});
