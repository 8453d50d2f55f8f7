// Pages in the form's language (SPEC §13): buttons, messages, notices; Arabic and Hebrew right
// to left; accessible in every direction.
import AxeBuilder from "@axe-core/playwright";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PageSuite, startPageSuite } from "../helpers/browser.ts";

let suite: PageSuite;

beforeAll(async () => {
  suite = await startPageSuite();
}, 180_000);
afterAll(async () => {
  await suite?.close();
});

const fields = [
  { id: "name", type: "text", label: "Name", required: true, step: 1 },
  { id: "email", type: "email", label: "E-Mail", step: 1 },
  { id: "since", type: "date", label: "Datum", min: "2026-01-01", step: 1 },
  { id: "fav", type: "select", label: "Farbe", options: ["Rot", "Blau"], step: 1 },
  { id: "ok", type: "yes_no", label: "Einverstanden?", step: 2 },
  { id: "stars", type: "rating", label: "Sterne", step: 2 },
];

const axe = async (page: Awaited<ReturnType<PageSuite["open"]>>) =>
  (await new AxeBuilder({ page }).analyze()).violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => n.target).join(", ")}`,
  );

describe("page languages", () => {
  it("shows a German page in German: buttons, steps, messages, dates, choices", async () => {
    await suite.api("POST", "/api/forms", {
      body: { title: "Anmeldung", slug: "anmeldung", locale: "de", humanness: false, fields },
    });
    // the page carries German and no other language; the script carries none
    const html = await (await fetch(`${suite.server.url}/@me/anmeldung`)).text();
    expect(html).toContain("Bitte beantworten Sie diese Frage.");
    for (const other of ["Please answer this question.", "Veuillez répondre", "この質問"])
      expect(html).not.toContain(other);
    const script = /src="(\/_astro\/[^"]+\.js)"/.exec(html)![1]!;
    const js = await (await fetch(`${suite.server.url}${script}`)).text();
    for (const text of ["Bitte beantworten", "Please answer this question", "Veuillez"])
      expect(js).not.toContain(text);
    const page = await suite.open("/@me/anmeldung");
    await expect(page.locator("html").getAttribute("lang")).resolves.toBe("de");
    await expect(page.locator("html").getAttribute("dir")).resolves.toBe("ltr");
    await expect(page.locator("[data-step]").textContent()).resolves.toBe("Schritt 1 von 2");
    await expect(page.getByRole("combobox", { name: "Farbe" }).textContent()).resolves.toContain(
      "Bitte wählen…",
    );
    await page.getByLabel("E-Mail").fill("nicht-gültig");
    await page.getByLabel("Datum").fill("2025-06-01");
    await page.getByRole("button", { name: "Weiter" }).click();
    await page.getByText("Bitte beantworten Sie diese Frage.").waitFor();
    await page.getByText("Geben Sie eine E-Mail-Adresse ein").waitFor();
    await page.getByText("Wählen Sie den 1. Januar 2026 oder später.").waitFor();
    expect(await axe(page)).toEqual([]);
    await page.getByLabel("Name").fill("Jörg");
    await page.getByLabel("E-Mail").fill("joerg@example.com");
    await page.getByLabel("Datum").fill("2026-02-01");
    await page.getByRole("button", { name: "Weiter" }).click();
    await page.getByRole("radio", { name: "Ja" }).check();
    await page.getByRole("radio", { name: "4 von 5 Sternen" }).check();
    await expect(page.locator("[data-stars]").textContent()).resolves.toBe("4 von 5 Sternen");
    await page.getByRole("button", { name: "Zurück" }).isVisible();
    await page.getByRole("button", { name: "Absenden" }).click();
    await page.getByRole("heading", { name: "Vielen Dank" }).waitFor();
    await page.getByText("Ihre Antwort wurde gespeichert.").waitFor();
    expect((await suite.latest("anmeldung"))?.payload).toMatchObject({ ok: "yes", stars: 4 });
  });

  it("lays an Arabic page out right to left, in Arabic, with no axe violations", async () => {
    await suite.api("POST", "/api/forms", {
      body: {
        title: "استبيان",
        slug: "istibyan",
        locale: "ar",
        humanness: false,
        fields: [
          { id: "name", type: "text", label: "الاسم", required: true },
          { id: "score", type: "nps", label: "هل تنصح بنا؟", low_label: "لا", high_label: "نعم" },
          { id: "agree", type: "yes_no", label: "موافق؟" },
        ],
      },
    });
    const page = await suite.open("/@me/istibyan");
    await expect(page.locator("html").getAttribute("dir")).resolves.toBe("rtl");
    await expect(page.locator("html").getAttribute("lang")).resolves.toBe("ar");
    await page.getByRole("radio", { name: "نعم", exact: true }).check();
    await page.getByRole("button", { name: "إرسال" }).click();
    await page.getByText("يُرجى الإجابة عن هذا السؤال.").waitFor();
    // right to left: the label's text ends at the field's right edge
    const [label, input] = await Promise.all([
      page.locator(".fd-label").first().boundingBox(),
      page.getByLabel("الاسم").boundingBox(),
    ]);
    expect(Math.abs(label!.x + label!.width - (input!.x + input!.width))).toBeLessThan(2);
    expect(await axe(page)).toEqual([]);
    await page.getByLabel("الاسم").fill("ليلى");
    await page.getByRole("button", { name: "إرسال" }).click();
    await page.getByRole("heading", { name: "شكرًا لك" }).waitFor();
  });

  it("says closed and not found in the visitor's language", async () => {
    await suite.api("POST", "/api/forms", {
      body: { title: "Fermé", slug: "ferme", locale: "fr", access: { mode: "closed" }, fields },
    });
    const closed = await suite.open("/@me/ferme");
    await closed.getByText("Ce formulaire est fermé et n’accepte plus de réponses.").waitFor();
    const res = await fetch(`${suite.server.url}/@me/nothing-here`, {
      headers: { "accept-language": "ja-JP,ja;q=0.9,en;q=0.5" },
    });
    expect(res.status).toBe(404);
    const html = await res.text();
    expect(html).toContain('lang="ja"');
    expect(html).toContain("フォームが見つかりません");
  });

  it("refuses an unknown locale with the list of known ones", async () => {
    const r = await suite.api("POST", "/api/forms", {
      body: { title: "X", slug: "xx", locale: "tlh", fields },
    });
    expect(r.status).toBe(400);
    expect(r.body.details).toEqual([
      { field: "locale", message: expect.stringMatching(/^must be one of: en, de, fr, es, it/) },
    ]);
  });
});
