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
  it("counts a respondent who stopped at a field as having reached every field before it", () => {
    const furthest = new Map([
      ["a", 3],
      ["b", 2],
    ]);
    const answered = new Map([
      ["a", 4],
      ["b", 3],
      ["c", 1],
    ]);
    expect(dropoffFunnel(fields, furthest, answered, 4)).toEqual([
      { field: "a", reached: 9, answered: 4 },
      { field: "b", reached: 6, answered: 3 },
      { field: "c", reached: 4, answered: 1 },
    ]);
  });

  it("lets a beacon at a statement count for the fields before it only", () => {
    const funnel = dropoffFunnel(fields, new Map([["intro", 5]]), new Map(), 0);
    expect(funnel.map((s) => s.reached)).toEqual([5, 0, 0]);
  });

  it("is the responses alone when no page sent a beacon", () => {
    expect(dropoffFunnel(fields, new Map(), new Map(), 2).map((s) => s.reached)).toEqual([2, 2, 2]);
  });
});
