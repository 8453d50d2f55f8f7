import { describe, expect, it } from "vitest";
import { cellText, csvLine, exportColumns } from "../../src/core/csv.ts";
import { escapeCell } from "../../src/core/markdown.ts";
import { formSchema } from "../../src/core/schema.ts";
import { copyLines } from "./copy-lines.ts";
import { decode, encode, type Field } from "./copy-rows.ts";

// Every branch of the writers — a quiz's score, the language, test answers, NULLs — against the
// batched path's own functions, from fields as COPY's text format gives them (as copy-bytes.ts
// reads them).
const form = formSchema.parse({
  title: "Q",
  slug: "q",
  type: "quiz",
  humanness: false,
  fields: [
    { id: "name", type: "text" },
    { id: "pick", type: "checkbox", options: ["a, b", "=x", "ü"], answer: ["ü"] },
    { id: "temp", type: "number" },
  ],
});
const columns = exportColumns(form.fields);
const shape = {
  formId: "",
  columns,
  range: { since: null, until: null },
  quiz: true,
  withTest: true,
  lang: true,
  filter: null,
};
const headers = [
  "id",
  "submitted_at",
  "lang",
  "name",
  "pick",
  "temp",
  "score_points",
  "score_percent",
  "test",
];
const rows = [
  {
    id: "0a4f0c9e-3c1e-4d55-9a55-8d7c2b1e0f01",
    at: ["2026-11-26 13:46:18.5", "2026-11-26T13:46:18.500Z"],
    lang: "de",
    payload: { name: '=1+1, "q"', pick: ["a, b", "ü"], temp: -4 },
    // a negative number stays a number (SPEC §23), in the answers and the score
    score: { points: -1, percent: 50 },
    test: true,
  },
  {
    id: "1b4f0c9e-3c1e-4d55-9a55-8d7c2b1e0f02",
    at: ["2026-11-26 13:46:19.123456", "2026-11-26T13:46:19.123Z"],
    lang: null,
    // a text under a number field (an earlier version's text field) is text: neutralised
    payload: { name: "- Zoë | 1. _x_", temp: "-4" },
    score: null,
    test: false,
  },
];
/** A row's fields as `copyStatement` selects them, as bytes, one a character. */
const tableFields = (r: (typeof rows)[number]): Field[] =>
  [
    r.id,
    r.at[0]!,
    r.lang,
    r.payload.name,
    r.payload.pick ? JSON.stringify(r.payload.pick).replaceAll('","', '", "') : null,
    r.payload.temp === undefined ? null : JSON.stringify(r.payload.temp),
    r.score ? String(r.score.points) : null,
    r.score ? String(r.score.percent) : null,
    r.test ? "t" : "f",
  ].map((f) => (f === null ? null : encode(f)));
const batchedCells = (r: (typeof rows)[number]) => [
  r.id,
  r.at[1],
  r.lang ?? "",
  ...columns.map((c) => c.read(r.payload)),
  r.score?.points,
  r.score?.percent,
  r.test ? "true" : "",
];
const written = (
  format: "csv" | "markdown" | "json",
  fields: (r: (typeof rows)[number]) => Field[],
) => {
  const lines = copyLines(shape, format, headers);
  return decode(lines.head + rows.map((r) => lines.line(fields(r))).join("") + lines.tail());
};

describe("copyLines writes what the batched export writes", () => {
  it("CSV, byte for byte", () => {
    const csv = written("csv", tableFields);
    expect(csv).toBe([headers, ...rows.map(batchedCells)].map((cells) => csvLine(cells)).join(""));
    const [first, second] = csv.split("\r\n").slice(1);
    expect(first).toMatch(/,-4,-1,50,true$/);
    expect(second).toMatch(/,'-4,,,$/);
  });

  it("Markdown, byte for byte", () => {
    const line = (cells: unknown[]) =>
      `| ${cells.map((c) => escapeCell(cellText(c))).join(" | ")} |\n`;
    expect(written("markdown", tableFields)).toBe(
      `${line(headers)}| ${headers.map(() => "---").join(" | ")} |\n${rows.map((r) => line(batchedCells(r))).join("")}`,
    );
  });

  it("JSON, as the records the API gives", () => {
    const recordFields = (r: (typeof rows)[number]): Field[] =>
      [
        r.id,
        r.at[0]!,
        "1",
        r.lang,
        JSON.stringify(r.payload),
        r.score ? JSON.stringify(r.score) : null,
        r.test ? "t" : "f",
      ].map((f) => (f === null ? null : encode(f)));
    expect(JSON.parse(written("json", recordFields))).toEqual(
      rows.map((r) => ({
        id: r.id,
        submitted_at: r.at[1],
        version: 1,
        ...(r.lang ? { lang: r.lang } : {}),
        payload: r.payload,
        score: r.score,
        ...(r.test ? { test: true } : {}),
      })),
    );
    const none = copyLines(shape, "json", headers);
    expect(none.head + none.tail()).toBe("[]\n");
  });
});
