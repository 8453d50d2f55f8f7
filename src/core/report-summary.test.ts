import { describe, expect, it } from "vitest";
import { fieldSchema } from "./field-schema.ts";
import { reportLocale } from "./report-locale.ts";
import { fieldSection as section } from "./report-markdown.ts";
import { fieldSummary, newTally, type Tally } from "./report-summary.ts";

const field = (input: object) => fieldSchema.parse(input);
const fieldSection = (f: ReturnType<typeof field>, tally: Tally, responses: number) =>
  section(f, tally, responses, reportLocale("en"));

describe("a field's figures as data and as Markdown, one story", () => {
  it("gives the NPS split and says how many promoters, passives and detractors", () => {
    const nps = field({ id: "score", type: "nps" });
    const tally = newTally(10);
    for (const [v, n] of [
      [0, 2],
      [6, 1],
      [7, 2],
      [9, 3],
      [10, 2],
    ] as const)
      tally.numbers.set(v, n);
    const summary = fieldSummary(nps, tally);
    expect(summary).toMatchObject({
      id: "score",
      type: "nps",
      answered: 10,
      mean: 6.7,
      nps: { score: 20, promoters: 5, passives: 2, detractors: 3, detractor_share: 0.3 },
    });
    expect(fieldSection(nps, tally, 10)).toContain("NPS **20**");
  });

  it("counts choices with shares of the answers", () => {
    const radio = field({ id: "dish", type: "radio", options: ["Pizza", "Sushi", "Tacos"] });
    const tally = newTally(4);
    tally.counts.set("Pizza", 3).set("Sushi", 1);
    expect(fieldSummary(radio, tally).options).toEqual([
      { option: "Pizza", count: 3, share: 0.75 },
      { option: "Sushi", count: 1, share: 0.25 },
      { option: "Tacos", count: 0, share: 0 },
    ]);
  });

  it("announces text answers it leaves out, in the summary and in the Markdown", () => {
    const text = field({ id: "why", type: "textarea" });
    const tally = newTally(6);
    tally.recent = ["a", "b", "c", "d", "e"];
    expect(fieldSummary(text, tally)).toMatchObject({ answers: tally.recent, more: 1 });
    expect(fieldSection(text, tally, 6)).toContain("…and 1 more.");
    tally.recent.push("f");
    expect(fieldSummary(text, tally)).toMatchObject({ more: 0 });
    expect(fieldSection(text, tally, 6)).not.toContain("more.");
  });

  it("announces number values beyond the Markdown table's twenty, and keeps them all as data", () => {
    const num = field({ id: "n", type: "number" });
    const tally = newTally(25);
    for (let v = 1; v <= 25; v++) tally.numbers.set(v, 1);
    expect(fieldSection(num, tally, 25)).toContain("…and 5 more values.");
    expect(fieldSummary(num, tally)).toMatchObject({ median: 13, min: 1, max: 25 });
    expect((fieldSummary(num, tally).distribution as unknown[]).length).toBe(25);
  });
});
