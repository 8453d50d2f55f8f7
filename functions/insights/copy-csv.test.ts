import { describe, expect, it } from "vitest";
import { cutAt } from "../../test/helpers/chunks.ts";
import { type CsvCell, copyCsvRows } from "./copy-csv.ts";
import { csvText, type Field, listCell, pgInstant } from "./copy-rows.ts";

// The byte writer against the string one it stands in for (copy-lines.ts: `pgInstant`,
// `listCell`, `csvText` a cell), over rows as COPY's text format gives them, every cell kind,
// and the input cut at every byte.
const CELLS: CsvCell[] = ["text", "list", "text", "flag"];

/** The string writer's line, from fields already unescaped. */
function stringLine(fields: Field[]): string {
  let out = `${fields[0]},${pgInstant(fields[1]!)}`;
  CELLS.forEach((cell, i) => {
    const f = fields[i + 2] as Field;
    const text =
      cell === "list" ? listCell(f) : cell === "flag" ? (f === "t" ? "true" : "") : (f ?? "");
    out += `,${csvText(text)}`;
  });
  return `${out}\r\n`;
}

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
];

describe("copyCsvRows writes what the string writer writes", () => {
  const copy = `${ROWS.map((r) => r.join("\t")).join("\n")}\n`;
  const bytes = Buffer.from(copy, "utf8");

  async function written(cuts: number[]): Promise<string> {
    const seen: Buffer[] = [];
    const line = (fields: Field[]) => stringLine(fields);
    for await (const out of copyCsvRows(cutAt(bytes, cuts), CELLS, line))
      seen.push(Buffer.from(out));
    return Buffer.concat(seen).toString("latin1");
  }

  it("byte for byte, whole and cut at every byte", async () => {
    // the string writer over the same rows, split as copy-rows.ts splits them
    const { rowFields } = await import("./copy-rows.ts");
    const text = bytes.toString("latin1");
    let expected = "";
    const fields: Field[] = [];
    for (let start = 0, end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", start)) {
      rowFields(text, start, end, !text.slice(start, end).includes("\\"), fields);
      expected += stringLine(fields);
      start = end + 1;
    }
    expect(await written([])).toBe(expected);
    // the cells the byte path wrote itself, as the batched export writes them
    const lines = Buffer.from(expected, "latin1").toString("utf8").split("\r\n");
    expect(lines[0]).toBe(`${ID},2026-11-26T13:46:18.509Z,Ann,a; c,7,true`);
    expect(lines[1]).toBe(`${ID},2026-11-26T13:46:18.500Z,'=1+1,"'=x; a, b",'-3,`);
    expect(lines[2]).toBe(`${ID},2026-11-26T13:46:18.000Z,"say ""hi"", twice",,,true`);
    expect(lines[3]).toBe(`${ID},2026-11-26T13:46:18.120Z,Zoë 😀 €,ü; ,'@me,`);
    expect(lines[9]).toBe(`${ID},2026-11-26T13:46:18.900Z,,,,`);
    expect(lines[10]).toBe(`${ID},2026-11-26T13:46:18.900Z,Bo,,5,`);
    expect(lines[11]).toBe(`${ID},2026-11-26T13:46:18.900Z,,a,a\tb,true`);
    expect(lines[12]).toBe(`${ID},2026-11-26T13:46:18.900Z,\\N,,x\\N,`);
    for (let cut = 1; cut < bytes.length; cut++) expect(await written([cut])).toBe(expected);
  });

  it("refuses an instant it cannot write, and a COPY that ends inside a row", async () => {
    const bad = Buffer.from(`${ID}\t26/11/2026 13:46\ta\t[]\t1\tt\n`);
    const drain = async (input: Buffer) => {
      async function* one() {
        yield input;
      }
      for await (const _ of copyCsvRows(one(), CELLS, stringLine)) void _;
    };
    await expect(drain(bad)).rejects.toThrow(/DateStyle must be ISO/);
    await expect(drain(bytes.subarray(0, bytes.length - 1))).rejects.toThrow(/inside a row/);
  });
});
