// SPEC §20 end to end, as issue 27 tries it: a form with `languages: [de, ar]` and its two
// translation files deployed through the CLI; browsers preferring German and Arabic land on
// their pages; one respondent per language answers in that language; the export holds the form's
// own options and a `lang` column; the report counts the three together and per language.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensurePagesBuilt } from "../../functions/node/build-pages.ts";
import { launch, type SuiteBrowser } from "../helpers/browser.ts";
import { runFormdown } from "../helpers/cli.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const EVENT = `---
title: Team event
slug: event
humanness: false
languages: [de, ar]
fields:
  - id: role
    type: radio
    label: What is your role?
    required: true
    options: [Design, Engineering, Sales]
  - id: topics
    type: checkbox
    label: Which topics interest you?
    options: [Talks, Workshops, Food]
---
Tell us what you would like.
`;
const DE = `---
title: Teamveranstaltung
fields:
  role:
    label: Was ist Ihre Rolle?
    options: { Design: Gestaltung, Engineering: Technik, Sales: Vertrieb }
  topics:
    label: Welche Themen interessieren Sie?
    options: { Talks: Vorträge, Workshops: Werkstätten, Food: Essen }
---
Sagen Sie uns, was Sie möchten.
`;
const AR = `---
title: فعالية الفريق
fields:
  role:
    label: ما هو دورك؟
    options: { Design: التصميم, Engineering: الهندسة, Sales: المبيعات }
  topics:
    label: ما المواضيع التي تهمك؟
    options: { Talks: المحاضرات, Workshops: ورش العمل, Food: الطعام }
---
أخبرنا بما تريد.
`;

let s: TestServer;
let browser: SuiteBrowser;
let dir = "";

beforeAll(async () => {
  await ensurePagesBuilt();
  s = await startTestServer();
  browser = await launch();
  dir = await mkdtemp(join(tmpdir(), "formdown-langs-"));
  await mkdir(join(dir, "forms/@me"), { recursive: true });
  await writeFile(join(dir, "forms/@me/event.md"), EVENT);
  await writeFile(join(dir, "forms/@me/event.de.md"), DE);
  await writeFile(join(dir, "forms/@me/event.ar.md"), AR);
}, 240_000);
afterAll(async () => {
  await browser?.close();
  await s?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const base = () => `${s.url}/@me/event`;
const api = (path: string, init: RequestInit = {}) =>
  fetch(`${s.url}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${s.apiKey}`, "content-type": "application/json" },
  });

/** A respondent whose browser prefers `locale`, on the form's own URL. */
async function respondent(locale: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ locale });
  const page = await context.newPage();
  await page.goto(base());
  return { context, page };
}

async function answer(page: Page, role: string, topic: string) {
  await page.getByLabel(role, { exact: true }).check();
  await page.getByLabel(topic, { exact: true }).check();
  await page.locator("[data-submit]").click();
  await page.locator(".fd-done").waitFor({ state: "visible" });
}

describe("one form in English, German and Arabic", () => {
  it("deploys the form with its translation files through the CLI", async () => {
    const run = await runFormdown(["deploy"], {
      env: { FORMDOWN_URL: s.url, FORMDOWN_API_KEY: s.apiKey },
      cwd: dir,
    });
    expect(run.code, run.stderr + run.stdout).toBe(0);
    expect(run.stdout).toContain("created");
    // the translations came with it; the files stay the author's repository's (SPEC §22: the
    // server writes nothing into its own for a deploy from another repository)
    const de = await fetch(`${s.url}/api/forms/event?lang=de`, {
      headers: { authorization: `Bearer ${s.apiKey}` },
    }).then((r) => r.json());
    expect(de.config.title).toBe("Teamveranstaltung");
    expect(await s.ctx.repo.read("forms/@me/event.de.md")).toBeNull();
  });

  it("sends a German browser to the German page, with links between every language", async () => {
    const { context, page } = await respondent("de-DE");
    await page.waitForURL(`${base()}/de`);
    expect(await page.locator("html").getAttribute("lang")).toBe("de");
    expect(await page.locator("h1").textContent()).toBe("Teamveranstaltung");
    expect(await page.getByLabel("Technik", { exact: true }).getAttribute("value")).toBe(
      "Engineering",
    );
    const links = await page
      .locator('link[rel="alternate"]')
      .evaluateAll((ls) =>
        ls.map((l) => `${l.getAttribute("hreflang")} ${l.getAttribute("href")}`),
      );
    expect(links).toEqual([
      `en ${base()}`,
      `de ${base()}/de`,
      `ar ${base()}/ar`,
      `x-default ${base()}`,
    ]);
    await expect(page.locator(".fd-langs a").allTextContents()).resolves.toEqual([
      "English",
      "العربية",
    ]);
    await answer(page, "Technik", "Vorträge");
    await context.close();
  });

  it("sends an Arabic browser to the right-to-left Arabic page", async () => {
    const { context, page } = await respondent("ar");
    await page.waitForURL(`${base()}/ar`);
    expect(await page.locator("html").getAttribute("dir")).toBe("rtl");
    expect(await page.locator("h1").textContent()).toBe("فعالية الفريق");
    await answer(page, "التصميم", "الطعام");
    await context.close();
  });

  it("keeps an English browser on the form's own page, and remembers a language chosen", async () => {
    const { context, page } = await respondent("en-US");
    expect(page.url()).toBe(base());
    expect(await page.locator("html").getAttribute("dir")).toBe("ltr");
    await answer(page, "Sales", "Workshops");
    // the switch chooses German; back on the form's own URL, the choice holds
    const second = await context.newPage();
    await second.goto(base());
    await second.getByRole("link", { name: "Deutsch" }).click();
    await second.waitForURL(`${base()}/de`);
    await second.getByRole("link", { name: "English" }).click();
    await second.waitForURL(base());
    await second.goto(base());
    expect(await second.locator("h1").textContent()).toBe("Team event");
    await context.close();
  });

  it("exports three rows in the form's own options, with the language each was read in", async () => {
    const res = await api("/api/forms/event/responses/export?format=csv");
    const [head, ...rows] = (await res.text()).trim().split("\r\n");
    const columns = head!.split(",");
    expect(columns.slice(0, 3)).toEqual(["id", "submitted_at", "lang"]);
    const cells = rows.map((r) => r.split(","));
    const at = (name: string) => columns.indexOf(name);
    const byLang = Object.fromEntries(
      cells.map((c) => [c[at("lang")], [c[at("role")], c[at("topics")]]]),
    );
    expect(byLang).toEqual({
      de: ["Engineering", "Talks"],
      ar: ["Design", "Food"],
      en: ["Sales", "Workshops"],
    });
  });

  it("counts the three together in the report and shows responses per language", async () => {
    const report = await (await api("/api/forms/event/report?period=all")).text();
    expect(report).toMatch(/\| Engineering \| 1 \| 33\s?% \|/);
    expect(report).toContain("## Responses per language");
    for (const name of ["English (en)", "German (de)", "Arabic (ar)"])
      expect(report).toMatch(new RegExp(`\\| ${name.replace(/[()]/g, "\\$&")} \\| 1 \\|`));
  });

  it("maps an API client's translated labels to the form's options and records its lang", async () => {
    const res = await fetch(`${s.url}/api/forms/event/submit`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ lang: "de", fields: { role: "Vertrieb", topics: ["Essen"] } }),
    });
    expect(res.status).toBe(201);
    const list = await (await api("/api/forms/event/responses?limit=1")).json();
    expect(list.responses[0]).toMatchObject({
      lang: "de",
      payload: { role: "Sales", topics: ["Food"] },
    });
    const wrong = await fetch(`${s.url}/api/forms/event/submit`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ lang: "fr", fields: { role: "Sales" } }),
    });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).code).toBe("validation_failed");
  });

  it("gives the form's definition in one of its languages over REST", async () => {
    const de = await (await api("/api/forms/event?lang=de")).json();
    expect(de).toMatchObject({ lang: "de", languages: ["en", "de", "ar"] });
    expect(de.config.title).toBe("Teamveranstaltung");
    expect(de.config.fields[0].options).toEqual(["Design", "Engineering", "Sales"]);
    expect(de.choices.role).toEqual({
      Design: "Gestaltung",
      Engineering: "Technik",
      Sales: "Vertrieb",
    });
    const own = await (await api("/api/forms/event")).json();
    expect(own).toMatchObject({ lang: "en", config: { title: "Team event" } });
    expect((await api("/api/forms/event?lang=fr")).status).toBe(400);
  });

  it("embeds the form in the language data-lang names", async () => {
    const embed = await runFormdown(["embed", "event", "--lang", "ar"], {
      env: { FORMDOWN_URL: s.url, FORMDOWN_API_KEY: s.apiKey },
    });
    expect(embed.stdout).toContain(`<div data-formdown="${base()}" data-lang="ar"></div>`);
    const context = await browser.newContext({ locale: "de-DE" });
    const page = await context.newPage();
    // the author's own site, on another origin (localhost, another port)
    const host = createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/html" }).end(`<h1>Host</h1>${embed.stdout}`);
    });
    await new Promise<void>((r) => host.listen(0, "127.0.0.1", r));
    await page.goto(`http://localhost:${(host.address() as AddressInfo).port}/`);
    const frame = page.frameLocator("iframe");
    await expect(frame.locator("h1").textContent()).resolves.toBe("فعالية الفريق");
    expect(await frame.locator("html").getAttribute("dir")).toBe("rtl");
    expect(await frame.locator("html").getAttribute("class")).toContain("fd-embed");
    await context.close();
    host.close();
  });
});
