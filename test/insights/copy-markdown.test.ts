// The Markdown export escapes a cell only where it must (issue 28: on Postgres a cell goes
// through escapeCell only when it holds a syntax character, a character beyond ASCII or a block
// marker at its start; functions/exports/copy-rows.ts). Every line must still be what the
// page's own escaping writes, on both databases: the batched path on PGlite, COPY on Postgres.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cellText, exportColumns } from "../../src/core/csv.ts";
import { escapeCell } from "../../src/core/markdown.ts";
import { formSchema } from "../../src/core/schema.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const form = {
  title: "Blocks",
  slug: "blocks",
  humanness: false,
  fields: [
    { id: "text", type: "textarea", label: "Text" },
    { id: "n", type: "number", label: "N" },
    { id: "pick", type: "checkbox", label: "Pick", options: ["- a", "1. b", "plain", "_u", "x_y"] },
  ],
};
const columns = exportColumns(formSchema.parse(form).fields);
// what may open a block, and what only looks like it; plain rows beside rows with syntax
const texts = [
  "- dash",
  "  # heading",
  "1. one",
  "12) twelve",
  "3.5",
  "1.x",
  "7 days. ok",
  "+ plus",
  "+plus",
  "> quote",
  "\u00a0- after a no-break space",
  "\t- after a tab",
  "\u2003# after an em space",
  "ünï - in the middle",
  "#nospace",
  "a_b",
  "_edge",
  "plain text",
  "9",
  "",
  "x\ny",
  "*bold*",
  "2024-01-02",
];
const numbers = [-5, 3.5, 12, 0, 1];
const picks = [["- a"], ["1. b", "plain"], ["plain"], ["_u"], ["x_y", "plain"], []];

describe.each(DB_KINDS)("the Markdown export's escaping (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
    expect((await api("POST", "/api/forms", { body: form })).status).toBe(201);
    for (const [i, text] of texts.entries()) {
      const fields: Record<string, unknown> = { n: numbers[i % numbers.length] };
      if (text) fields.text = text;
      const pick = picks[i % picks.length]!;
      if (pick.length > 0) fields.pick = pick;
      const res = await api("POST", "/api/forms/blocks/submit", { key: null, body: { fields } });
      expect(res.status).toBe(201);
    }
  });
  afterAll(() => s?.close());

  it("writes every line as escapeCell does", async () => {
    const res = await fetch(`${s.url}/api/forms/blocks/responses/export?format=markdown`, {
      headers: { authorization: `Bearer ${s.apiKey}` },
    });
    expect(res.status).toBe(200);
    const lines = (await res.text()).trim().split("\n");
    const records = (await api("GET", "/api/forms/blocks/responses?limit=100")).body.responses;
    expect(records).toHaveLength(texts.length);
    const expected = records.map((r: { id: string; submitted_at: string; payload: never }) => {
      const cells = [r.id, r.submitted_at, ...columns.map((c) => c.read(r.payload))];
      return `| ${cells.map((c) => escapeCell(cellText(c))).join(" | ")} |`;
    });
    expect(lines.slice(2)).toEqual(expected);
    // the cases the check must not miss, as they appear
    const body = lines.join("\n");
    for (const shown of ["\\- dash", "  \\# heading", "1\\. one", "12\\) twelve", "\\+ plus"])
      expect(body).toContain(shown);
    expect(body).toContain("| 3.5 |");
    expect(body).toContain("\\- a |");
  });
});
