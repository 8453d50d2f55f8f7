import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { csvCell, csvLine, exportColumns } from "./csv.ts";
import { formSchema } from "./schema.ts";

const form = formSchema.parse({
  title: "T",
  slug: "t",
  fields: [
    { id: "intro", type: "statement", label: "Hi" },
    { id: "name", type: "text" },
    { id: "tools", type: "checkbox", options: ["a", "b", "c"] },
    {
      id: "grid",
      type: "matrix",
      rows: [
        { id: "speed", label: "Speed" },
        { id: "ux", label: "UX" },
      ],
      columns: ["bad", "good"],
    },
    { id: "nps", type: "nps" },
  ],
});

describe("CSV cells and columns (SPEC §6)", () => {
  it("has one column per answer field in form order, a matrix one per row, statements none", () => {
    expect(exportColumns(form.fields, ["utm"]).map((c) => c.header)).toEqual([
      "name",
      "tools",
      "grid.speed",
      "grid.ux",
      "nps",
      "_hidden.utm",
    ]);
  });

  it("reads list answers joined with '; ', matrix rows by key, and NPS 0 as 0", () => {
    const payload = { name: "x", tools: ["a", "c"], grid: { ux: "good" }, nps: 0 };
    const cells = exportColumns(form.fields).map((c) => csvCell(c.read(payload)));
    expect(cells).toEqual(["x", "a; c", "", "good", "0"]);
  });

  it("neutralises every formula-leading cell and quotes per RFC 4180, parsing back exactly", () => {
    const values = [
      "=cmd|' /C calc'!A0",
      "+1",
      "-2",
      "@SUM(A1)",
      "\tx",
      "\rx",
      'say "hi", ok',
      "a\nb",
      "naïve 🙂",
      "plain",
    ];
    const parsed = parse(csvLine(values), { relax_column_count: false }) as string[][];
    expect(parsed[0]).toEqual([
      "'=cmd|' /C calc'!A0",
      "'+1",
      "'-2",
      "'@SUM(A1)",
      "'\tx",
      "'\rx",
      'say "hi", ok',
      "a\nb",
      "naïve 🙂",
      "plain",
    ]);
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell("-4")).toBe("'-4");
  });

  it("writes a number as the number it is: the formula guard is for text cells (SPEC §23)", () => {
    expect([-4, -0.5, 0, 3, -1e21].map(csvCell)).toEqual(["-4", "-0.5", "0", "3", "-1e+21"]);
    const parsed = parse(csvLine(["=1", -4, "-4", 12]), { cast: true }) as unknown[][];
    expect(parsed[0]).toEqual(["'=1", -4, "'-4", 12]);
    expect(csvCell(null)).toBe("");
  });
});
