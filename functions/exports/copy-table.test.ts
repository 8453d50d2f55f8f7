import { describe, expect, it } from "vitest";
import { cutAt } from "../../test/helpers/chunks.ts";
import { copyLines } from "./copy-lines.ts";
import { type Field, rowFields } from "./copy-rows.ts";

// The byte writer (copy-table.ts, through copyLines' `rows`) against the string writer it stands
// in for (copyLines' `line`: pgInstant, listCell, csvText or markdownText a cell), in both
// dialects, over rows as COPY's text format gives them — every cell kind, NULLs, escapes — with
// the input cut at every byte. The cells: a text, a list, a text, the test flag.
const shape = {
  formId: "",
  columns: [
    { header: "name", list: false, path: [] },
    { header: "tags", list: true, path: [] },
    { header: "note", list: false, path: [] },
  ],
  range: { since: null, until: null },
  quiz: false,
  withTest: true,
  lang: false,
  filter: null,
} as unknown as Parameters<typeof copyLines>[0];

const ID = "0a4f0c9e-3c1e-4d55-9a55-8d7c2b1e0f01";
/** Rows of COPY text (UTF-8 as bytes): plain ones and ones with an escape or a NULL. */
const ROWS = [
  [ID, "2026-11-26 13:46:18.509001", "Ann", '["a", "c"]', "7", "t"],
  [ID, "2026-11-26 13:46:18.5", "=1+1", '["=x", "a, b"]', "-3", "f"],
  [ID, "2026-11-26 13:46:18", 'say "hi", twice', "[]", "", "t"],
  [ID, "2026-11-26 13:46:18.12", "Zoë 😀 €", '["ü", ""]', "@me", "f"],
  [ID, "2026-11-26 13:46:18.123", "+49 30", "[1, 2, 3]", "x,y", "t"],
  [ID, "2026-11-26 13:46:18.1234", "plain", '[{"a": 1}, "b"]', "\\t", "f"],
  [ID, "2026-11-26 13:46:18.000001", "line\\nbreak", '["a\\\\"b"]', "\\N", "t"],
  [ID, "2026-11-26 13:46:18.9", "\\N", "\\N", "cr\\rhere", "f"],
  [ID, "2026-11-26 13:46:18.9", '"', '["a", "b", "c"]', "-", "t"],
  // NULLs alone (unanswered): written here as empty cells; a NULL beside an escape; text that
  // only looks like one (a backslash and an N, escaped)
  [ID, "2026-11-26 13:46:18.9", "\\N", "\\N", "\\N", "\\N"],
  [ID, "2026-11-26 13:46:18.9", "Bo", "\\N", "5", "\\N"],
  [ID, "2026-11-26 13:46:18.9", "\\N", '["a"]', "a\\tb", "t"],
  [ID, "2026-11-26 13:46:18.9", "\\\\N", "\\N", "x\\\\N", "f"],
  // what Markdown escapes: syntax characters, a block marker at the start, a line break
  [ID, "2026-11-26 13:46:18.9", "a | b *c* _d_", '["# h", "1. x"]', "  - item", "t"],
  [ID, "2026-11-26 13:46:18.9", "12) x", '["<b>", "[l]"]', "#nospace", "f"],
  [ID, "2026-11-26 13:46:18.9", "3.5", "[]", "> quote", "t"],
];

const bytes = Buffer.from(`${ROWS.map((r) => r.join("\t")).join("\n")}\n`, "utf8");

/** The lines the byte writer writes in `format`, the input cut at `cuts`. */
async function written(
  format: "csv" | "markdown",
  cuts: number[],
  of = shape,
  input = bytes,
): Promise<string> {
  const seen: Buffer[] = [];
  for await (const out of copyLines(of, format, []).rows(cutAt(input, cuts)))
    seen.push(Buffer.from(out));
  return Buffer.concat(seen).toString("latin1");
}

/** The lines the string writer writes, from the rows split as copy-rows.ts splits them. */
function expected(format: "csv" | "markdown", of = shape, input = bytes): string {
  const { line } = copyLines(of, format, []);
  const text = input.toString("latin1");
  let out = "";
  const fields: Field[] = [];
  for (let start = 0, end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", start)) {
    rowFields(text, start, end, !text.slice(start, end).includes("\\"), fields);
    out += line(fields);
    start = end + 1;
  }
  return out;
}

const utf8 = (latin1: string) => Buffer.from(latin1, "latin1").toString("utf8");

describe("the byte writer writes what the string writer writes", () => {
  it("CSV, byte for byte, whole and cut at every byte", async () => {
    const csv = expected("csv");
    expect(await written("csv", [])).toBe(csv);
    // cells the byte path writes itself, and ones it hands to csvText
    const lines = utf8(csv).split("\r\n");
    expect(lines[0]).toBe(`${ID},2026-11-26T13:46:18.509Z,Ann,a; c,7,true`);
    expect(lines[1]).toBe(`${ID},2026-11-26T13:46:18.500Z,'=1+1,"'=x; a, b",'-3,`);
    expect(lines[2]).toBe(`${ID},2026-11-26T13:46:18.000Z,"say ""hi"", twice",,,true`);
    expect(lines[3]).toBe(`${ID},2026-11-26T13:46:18.120Z,Zoë 😀 €,ü; ,'@me,`);
    expect(lines[9]).toBe(`${ID},2026-11-26T13:46:18.900Z,,,,`);
    expect(lines[10]).toBe(`${ID},2026-11-26T13:46:18.900Z,Bo,,5,`);
    expect(lines[11]).toBe(`${ID},2026-11-26T13:46:18.900Z,,a,a\tb,true`);
    expect(lines[12]).toBe(`${ID},2026-11-26T13:46:18.900Z,\\N,,x\\N,`);
    for (let cut = 1; cut < bytes.length; cut++) expect(await written("csv", [cut])).toBe(csv);
  });

  it("Markdown, byte for byte, whole and cut at every byte", async () => {
    const md = expected("markdown");
    expect(await written("markdown", [])).toBe(md);
    const lines = utf8(md).split("\n");
    expect(lines[0]).toBe(`| ${ID} | 2026-11-26T13:46:18.509Z | Ann | a; c | 7 | true |`);
    expect(lines[9]).toBe(`| ${ID} | 2026-11-26T13:46:18.900Z |  |  |  |  |`);
    // escaped by markdownText: not written as they came
    for (const raw of ["a | b *c* _d_", "# h; 1. x", "  - item", "12) x", "> quote"])
      expect(md).not.toContain(` ${raw} |`);
    // written as they came: nothing Markdown would read in them
    expect(lines[15]).toBe(`| ${ID} | 2026-11-26T13:46:18.900Z | 3.5 |  | \\> quote | true |`);
    for (let cut = 1; cut < bytes.length; cut++) expect(await written("markdown", [cut])).toBe(md);
  });

  it("writes a number column's numbers as they are, and a text in it as text (SPEC §23)", async () => {
    // a number field's answers as their jsonb text: numbers, and what an earlier version stored
    const numbers = {
      ...shape,
      columns: [{ header: "n", list: false, number: true, path: [] }],
    } as unknown as typeof shape;
    const cells = ["-4", "-0.5", "1e+21", "7", '"-4"', '"=1+1"', '"a, b"', "null", "true", "\\N"];
    const input = Buffer.from(cells.map((c) => `${ID}\t2026-11-26 13:46:18.5\t${c}\tf\n`).join(""));
    for (const format of ["csv", "markdown"] as const) {
      const want = expected(format, numbers, input);
      for (let cut = 0; cut < input.length; cut++)
        expect(await written(format, cut ? [cut] : [], numbers, input)).toBe(want);
    }
    const csv = expected("csv", numbers, input).split("\r\n");
    expect(csv.slice(0, 9).map((l) => l.split(",").slice(2).join(","))).toEqual([
      "-4,",
      "-0.5,",
      "1e+21,",
      "7,",
      "'-4,",
      "'=1+1,",
      '"a, b",',
      ",",
      "true,",
    ]);
  });

  it("refuses an instant it cannot write, and a COPY that ends inside a row", async () => {
    const drain = async (input: Buffer) => {
      for await (const _ of copyLines(shape, "csv", []).rows(cutAt(input, []))) void _;
    };
    await expect(drain(Buffer.from(`${ID}\t26/11/2026 13:46\ta\t[]\t1\tt\n`))).rejects.toThrow(
      /DateStyle must be ISO/,
    );
    await expect(drain(bytes.subarray(0, bytes.length - 1))).rejects.toThrow(/inside a row/);
  });
});
