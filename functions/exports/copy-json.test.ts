import { describe, expect, it } from "vitest";
import { cutAt } from "../../test/helpers/chunks.ts";
import { copyLines } from "./copy-lines.ts";
import { type Field, rowFields } from "./copy-rows.ts";

// The JSON byte writer (copy-json.ts, through copyLines' `rows`) against the string writer it
// stands in for (copyLines' `line`), over rows as COPY's text format gives them — each field
// kind, NULLs, escapes — with the input cut at every byte.
const shape = {
  formId: "",
  columns: [],
  range: { since: null, until: null },
  quiz: true,
  withTest: true,
  lang: false,
  filter: null,
};
const ID = "0a4f0c9e-3c1e-4d55-9a55-8d7c2b1e0f01";
// id, instant, version, language, payload, score, test
const ROWS = [
  // an escape first: the string writer opens the list, the byte writer goes on with it
  [ID, "2026-11-26 13:46:18.5", "1", "\\N", '{"a": "x\\\\"y"}', "\\N", "f"],
  [ID, "2026-11-26 13:46:18.509001", "2", "de", '{"name": "Zoë 😀", "n": 3}', '{"points": 1}', "t"],
  [ID, "2026-11-26 13:46:18", "1", "\\N", "{}", "\\N", "f"],
  [ID, "2026-11-26 13:46:18.12", "3", "pt-BR", '{"l": ["a", "b"]}', "\\N", "t"],
  [ID, "2026-11-26 13:46:18.12", "3", "ü", '{"x": null}', '{"percent": 50}', "f"],
  [ID, "2026-11-26 13:46:18.12", "3", "", '{"x": 1}', "\\N", "f"],
];

describe("copyJsonRows writes what the string writer writes", () => {
  const bytes = Buffer.from(`${ROWS.map((r) => r.join("\t")).join("\n")}\n`, "utf8");

  /** The records from the byte writer, the input cut at `cuts`. */
  async function written(cuts: number[]): Promise<string> {
    const writer = copyLines(shape, "json", []);
    const out: Buffer[] = [];
    for await (const part of writer.rows(cutAt(bytes, cuts))) out.push(Buffer.from(part));
    return Buffer.concat(out).toString("latin1") + writer.tail();
  }

  it("byte for byte, whole and cut at every byte, as records the API gives", async () => {
    const writer = copyLines(shape, "json", []);
    const text = bytes.toString("latin1");
    let expected = "";
    const fields: Field[] = [];
    for (let start = 0, end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", start)) {
      rowFields(text, start, end, !text.slice(start, end).includes("\\"), fields);
      expected += writer.line(fields);
      start = end + 1;
    }
    expected += writer.tail();
    expect(await written([])).toBe(expected);
    const records = JSON.parse(Buffer.from(expected, "latin1").toString("utf8"));
    expect(records).toHaveLength(ROWS.length);
    expect(records[0]).toEqual({
      id: ID,
      submitted_at: "2026-11-26T13:46:18.500Z",
      version: 1,
      payload: { a: 'x"y' },
      score: null,
    });
    expect(records[1]).toEqual({
      id: ID,
      submitted_at: "2026-11-26T13:46:18.509Z",
      version: 2,
      lang: "de",
      payload: { name: "Zoë 😀", n: 3 },
      score: { points: 1 },
      test: true,
    });
    expect(records[4].lang).toBe("ü");
    expect("lang" in records[5]).toBe(false);
    for (let cut = 1; cut < bytes.length; cut++) expect(await written([cut])).toBe(expected);
  });

  it("writes an empty list for no rows", async () => {
    const writer = copyLines(shape, "json", []);
    async function* none() {}
    for await (const _ of writer.rows(none())) void _;
    expect(writer.tail()).toBe("[]\n");
  });
});
