// The respondent's copy speaks their language (SPEC §25): a respondent of the German page of an
// English form gets the German title, labels, options, subject and body; its text part is plain
// text (no Markdown syntax) and its HTML keeps the line breaks of a multi-line answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainOutbox } from "../../functions/mail/sender.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const definition = {
  title: "Offsite",
  slug: "offsite",
  humanness: false,
  languages: ["de"],
  notifications: {
    respondent: {
      email_field: "mail",
      subject: "Your answers: {form_title}",
      body: "Thanks **{field:name}**!\n\n- See you *soon*",
    },
  },
  fields: [
    { id: "name", type: "text", label: "Name" },
    { id: "mail", type: "email", label: "Email" },
    { id: "day", type: "radio", label: "Which day?", options: ["Tuesday", "Wednesday"] },
    { id: "food", type: "checkbox", label: "Food", options: ["Vegetarian", "Vegan", "Meat"] },
    { id: "notes", type: "textarea", label: "Notes" },
  ],
};
const de = {
  title: "Betriebsausflug",
  notifications: {
    respondent: {
      subject: "Deine Antworten: {form_title}",
      body: "Danke **{field:name}**!\n\n- Bis *bald*",
    },
  },
  fields: {
    name: { label: "Name" },
    mail: { label: "E-Mail" },
    day: { label: "Welcher Tag?", options: { Tuesday: "Dienstag", Wednesday: "Mittwoch" } },
    food: {
      label: "Essen",
      options: { Vegetarian: "Vegetarisch", Vegan: "Vegan", Meat: "Fleisch" },
    },
    notes: { label: "Anmerkungen" },
  },
};

describe.each(DB_KINDS)("the respondent's copy in their language (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
    const created = await api("POST", "/api/forms", {
      body: { ...definition, translations: { de } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  });
  afterAll(() => s?.close());

  const copyTo = async (address: string) => {
    await drainOutbox(s.ctx, 50);
    const [row] = await s.ctx.db.query<{ subject: string; text_body: string; html_body: string }>(
      "select subject, text_body, html_body from outbox where kind = 'respondent' and recipients ->> 0 = $1",
      [address],
    );
    return row!;
  };

  it("gives a German page's respondent a German copy with a plain-text part", async () => {
    const r = await api("POST", "/api/forms/offsite/submit", {
      key: null,
      body: {
        lang: "de",
        fields: {
          name: "Jürgen Groß",
          mail: "juergen@example.com",
          day: "Dienstag",
          food: ["Vegetarisch"],
          notes: "Erste Zeile\nZweite Zeile",
        },
      },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const copy = await copyTo("juergen@example.com");
    expect(copy.subject).toBe("Deine Antworten: Betriebsausflug");
    expect(copy.text_body).toContain("Danke Jürgen Groß!");
    expect(copy.text_body).toContain("• Bis bald");
    expect(copy.text_body).toContain("Welcher Tag?\n  Dienstag");
    expect(copy.text_body).toContain("Essen\n  Vegetarisch");
    expect(copy.text_body).not.toMatch(/\*\*|Tuesday|Vegetarian|Which day/);
    expect(copy.html_body).toContain('<html lang="de">');
    expect(copy.html_body).toContain("<strong>Jürgen Groß</strong>");
    expect(copy.html_body).toContain("Erste Zeile<br>Zweite Zeile");
    // the answers are stored in the form's own terms all the same
    const stored = await api("GET", `/api/forms/offsite/responses/${r.body.response_id}`);
    expect(stored.body.payload).toMatchObject({ day: "Tuesday", food: ["Vegetarian"] });
  });

  it("gives the form's own page's respondent the form's language", async () => {
    const r = await api("POST", "/api/forms/offsite/submit", {
      key: null,
      body: { fields: { name: "Ada", mail: "ada@example.com", day: "Wednesday" } },
    });
    expect(r.status).toBe(201);
    const copy = await copyTo("ada@example.com");
    expect(copy.subject).toBe("Your answers: Offsite");
    expect(copy.text_body).toContain("Thanks Ada!");
    expect(copy.text_body).toContain("Which day?\n  Wednesday");
  });
});
