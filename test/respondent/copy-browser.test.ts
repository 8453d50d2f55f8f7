// Issue 45's German respondent, in a browser (SPEC §25): answering the German page of an English
// form (/@me/offsite/de) gets a German copy — subject, labels, options — whose text part has no
// Markdown syntax and whose HTML keeps the line breaks of a multi-line answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainOutbox } from "../../functions/mail/sender.ts";
import { type PageSuite, startPageSuite } from "../helpers/browser.ts";
import { DB_KINDS } from "../helpers/db.ts";

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

describe.each(DB_KINDS)("the German page's respondent gets a German copy (%s)", (kind) => {
  let suite: PageSuite;
  beforeAll(async () => {
    suite = await startPageSuite({ db: kind });
    const created = await suite.api("POST", "/api/forms", {
      body: { ...definition, translations: { de } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  }, 180_000);
  afterAll(async () => {
    await suite?.close();
  });

  it("answers the German page and reads the copy from the outbox", async () => {
    const page = await suite.open("/@me/offsite/de");
    await page.getByLabel("Name").fill("Jürgen Groß");
    await page.getByLabel("E-Mail").fill("juergen@example.com");
    await page.getByLabel("Dienstag").check();
    await page.getByLabel("Vegetarisch").check();
    await page.getByLabel("Anmerkungen").fill("Erste Zeile\nZweite Zeile");
    await page.getByRole("button", { name: "Absenden" }).click();
    await page.locator(".fd-done").waitFor();
    await drainOutbox(suite.server.ctx, 50);
    const [copy] = await suite.server.ctx.db.query<{
      subject: string;
      text_body: string;
      html_body: string;
    }>(
      "select subject, text_body, html_body from outbox where kind = 'respondent' and recipients ->> 0 = 'juergen@example.com'",
    );
    expect(copy?.subject).toBe("Deine Antworten: Betriebsausflug");
    expect(copy!.text_body).toContain("Danke Jürgen Groß!");
    expect(copy!.text_body).toContain("Welcher Tag?\n  Dienstag");
    expect(copy!.text_body).toContain("Essen\n  Vegetarisch");
    expect(copy!.text_body, copy!.text_body).toContain(
      "Anmerkungen\n  Erste Zeile\n  Zweite Zeile",
    );
    expect(copy!.text_body).not.toMatch(/\*|Tuesday|Vegetarian|Which day|Notes/);
    expect(copy!.html_body).toContain('<html lang="de">');
    expect(copy!.html_body).toContain("Erste Zeile<br>Zweite Zeile");
    // stored in the form's own terms, in the language it was answered in
    const stored = await suite.latest("offsite");
    expect(stored).toMatchObject({
      lang: "de",
      payload: { day: "Tuesday", food: ["Vegetarian"], notes: "Erste Zeile\nZweite Zeile" },
    });
    expect(suite.errors).toEqual([]);
  });
});
