// A checkbox answer in the CSV and Markdown exports: on Postgres a plain list's items are cut out
// of its jsonb text as COPY streams it (functions/exports/copy-rows.ts, `listCell`). Items that
// start or end with a bracket, formulas and commas must come out as the page's own cellText and
// csvCell write them, on both databases (PGlite's export takes the batched path).
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cellText, csvCell } from "../../src/core/csv.ts";
import { escapeCell } from "../../src/core/markdown.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const options = ["[Beta]", "x]", "[y", "plain", "a, b", "=sum", "]", "["];
const picks = [
  ["[Beta]"],
  ["x]"],
  ["[y", "plain"],
  ["plain", "x]"],
  ["=sum"],
  ["plain", "[Beta]"],
  ["a, b", "plain"],
  ["]"],
  ["[", "]"],
  ["plain", "=sum"],
];

describe.each(DB_KINDS)("list answers in the exports (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
    const form = {
      title: "Lists",
      slug: "lists",
      humanness: false,
      fields: [{ id: "pick", type: "checkbox", label: "Pick", options }],
    };
    expect((await api("POST", "/api/forms", { body: form })).status).toBe(201);
    for (const pick of picks)
      expect(
        (await api("POST", "/api/forms/lists/submit", { key: null, body: { fields: { pick } } }))
          .status,
      ).toBe(201);
  });
  afterAll(() => s?.close());

  const download = async (format: string) => {
    const res = await fetch(`${s.url}/api/forms/lists/responses/export?format=${format}`, {
      headers: { authorization: `Bearer ${s.apiKey}` },
    });
    expect(res.status).toBe(200);
    return res.text();
  };

  it("writes each list as cellText joins it, formulas neutralised, in CSV and Markdown", async () => {
    const records: { payload: { pick: string[] } }[] = (
      await api("GET", "/api/forms/lists/responses?limit=100")
    ).body.responses;
    expect(records).toHaveLength(picks.length);
    const rows = parse(await download("csv"), { columns: true }) as { pick: string }[];
    // csvCell's text, unquoted as a CSV reader reads it
    expect(rows.map((r) => r.pick)).toEqual(
      records.map((r) => (parse(csvCell(r.payload.pick)) as string[][])[0]![0]),
    );
    expect(rows.map((r) => r.pick)).toContain("[Beta]");
    expect(rows.map((r) => r.pick)).toContain("[; ]");
    const lines = (await download("markdown")).trim().split("\n").slice(2);
    expect(lines.map((l) => l.split(" | ").at(-1)!.slice(0, -2))).toEqual(
      records.map((r) => escapeCell(cellText(r.payload.pick))),
    );
  });
});
