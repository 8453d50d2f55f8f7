import { describe, expect, it } from "vitest";
import { cellText, csvCell } from "../../src/core/csv.ts";
import { escapeCell } from "../../src/core/markdown.ts";
import { cutAt } from "../../test/helpers/chunks.ts";
import { copyRows, Out } from "./copy-bytes.ts";
import { copyWriter } from "./copy-lines.ts";
import {
  csvText,
  decode,
  encode,
  type Field,
  listCell,
  markdownText,
  pgInstant,
  rowFields,
} from "./copy-rows.ts";

/**
 * The rows the exports' reader (copy-bytes.ts) reads from `bytes` cut into chunks at `cuts`, one
 * line per row: a row with an escape through `line`, any other through `row`.
 */
async function rows(bytes: Uint8Array, cuts: number[]): Promise<Field[][]> {
  const seen: Field[][] = [];
  const record = (fields: Field[]) => {
    seen.push(fields.map((f) => (f === null ? null : decode(f))));
    return `${seen.length}\n`;
  };
  const fields: Field[] = [];
  const out: Uint8Array[] = [];
  for await (const part of copyRows(
    cutAt(bytes, cuts),
    (size) => new Out(size),
    64,
    (o, _input, text, start, end) => {
      rowFields(text, start, end, false, fields);
      o.text(record(fields));
    },
    record,
  ))
    out.push(Buffer.from(part));
  expect(Buffer.concat(out).toString()).toBe(seen.map((_, i) => `${i + 1}\n`).join(""));
  return seen;
}

describe("the exports read COPY's text format", () => {
  // what Postgres writes for: a tab, a line break, a backslash, a NULL, an empty text, and
  // characters of two, three and four bytes; then rows without an escape, one with a NULL
  const text =
    "a\\tb\tline\\none\t\\\\x\t\\N\t\nü€\t😀\t\\r\\b\\f\\v\t-\t\nplain\t\\N\tx\t\t\nN\t\\\\N\t\\N\t\t\n";
  const expected: Field[][] = [
    ["a\tb", "line\none", "\\x", null, ""],
    ["ü€", "😀", "\r\b\f\v", "-", ""],
    ["plain", null, "x", "", ""],
    ["N", "\\N", null, "", ""],
  ];

  it("undoes its escapes and reads NULL, wherever the chunks are cut (inside a character too)", async () => {
    const bytes = new TextEncoder().encode(text);
    for (let cut = 0; cut <= bytes.length; cut++)
      expect(await rows(bytes, [cut])).toEqual(expected);
    for (let a = 1; a < bytes.length; a += 3)
      for (let b = a; b < bytes.length; b += 5) expect(await rows(bytes, [a, b])).toEqual(expected);
  });

  it("fails a stream that ends inside a row instead of dropping it", async () => {
    await expect(rows(new TextEncoder().encode("a\tb\nc\td"), [])).rejects.toThrow(/inside a row/);
  });

  it("refuses an instant the byte writers cannot write (DateStyle must be ISO)", async () => {
    const shape = {
      ...{ formId: "", columns: [], range: { since: null, until: null }, filter: null },
      ...{ quiz: false, withTest: false, lang: false },
    };
    for (const format of ["csv", "markdown", "json"] as const) {
      const id = "0a4f0c9e-3c1e-4d55-9a55-8d7c2b1e0f01";
      const row =
        format === "json" ? `${id}\t26/11/2026 13:46\t1\t\\N\t{}\n` : `${id}\t26/11/2026 13:46\n`;
      const drain = async () => {
        const writer = copyWriter(shape, format, []);
        for await (const _ of writer.rows(cutAt(Buffer.from(row), []))) void _;
      };
      await expect(drain()).rejects.toThrow(/DateStyle must be ISO/);
    }
  });
});

describe("the cells are written as the batched path writes them", () => {
  it("writes an instant as toISOString does, whatever digits its fraction kept", () => {
    for (const iso of [
      "2026-11-26T13:46:18.509Z",
      "2026-11-26T13:46:18.500Z",
      "2026-11-26T13:46:18.000Z",
      "2026-01-01T00:00:00.010Z",
    ]) {
      const pg = iso
        .slice(0, 23)
        .replace("T", " ")
        .replace(/\.?0+$/, "");
      expect(pgInstant(pg)).toBe(iso);
      // microseconds are cut, as the driver's Date cuts them
      if (pg.length === 23) expect(pgInstant(`${pg}999`)).toBe(iso);
    }
    expect(() => pgInstant("11/26/2026 13:46:18")).toThrow(/DateStyle/);
  });

  it("joins every kind of list as cellText does", () => {
    const lists: unknown[] = [
      ["a", "c"],
      ["x", "", "y", "z"],
      ["a", 1, ", "],
      ["a", 1, ", b"],
      [", ", 2, "x"],
      ["a", true],
      ["[Beta]", "x]"],
      ["[", "]"],
      ["", ""],
      [""],
      [],
      ["a, b", "plain"],
      ['say "hi"', "back\\slash"],
      ["a", 1, "b"],
      ["a", null, "b"],
      ["a", ["b"], "c"],
      [{ k: "v" }],
      ["ünï", "😀 ok"],
      ["tab\there", "line\nbreak", "\u0001"],
      "not a list",
      7,
      { a: [1] },
    ];
    for (const value of lists) {
      // jsonb's text: a space after each comma and colon
      const jsonb = JSON.stringify(value).replaceAll('","', '", "').replaceAll(",1,", ", 1, ");
      expect(decode(listCell(encode(jsonb))), jsonb).toBe(cellText(value));
    }
    expect(listCell(null)).toBe("");
  });

  it("quotes and neutralises CSV cells as csvCell does", () => {
    for (const t of [
      "plain",
      "",
      "=sum(A1)",
      "+1",
      "-2",
      "@x",
      "\tx",
      "\rx",
      'a "q"',
      "a,b",
      "x\ny",
      "ünï, ok",
      "9",
    ])
      expect(decode(csvText(encode(t))), t).toBe(csvCell(t));
  });

  it("escapes Markdown cells as escapeCell does", () => {
    for (const t of [
      "plain text",
      "- dash",
      "  # heading",
      "1. one",
      "12) twelve",
      "3.5",
      "7 days. ok",
      "> quote",
      "\u00a0- after a no-break space",
      "\t- after a tab",
      "ünï - in the middle",
      "a_b",
      "_edge",
      "*bold*",
      "x\r\ny",
      "a | b",
      "\u0001",
      "2024-01-02",
      "",
    ])
      expect(decode(markdownText(encode(t))), t).toBe(escapeCell(t));
  });
});
