// The resume link by email in a real browser (SPEC §25): a respondent of the German page of a
// form with settings.partial answers the first page, email included, and moves on; the outbox
// holds one German email with the link; the link opened in another browser context (another
// device) continues on the page they left, and the submit leaves one response under the
// partial's id, no partial and no link. Only such forms' pages load the partial chunk.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainOutbox } from "../../functions/mail/sender.ts";
import { type PageSuite, startPageSuite } from "../helpers/browser.ts";
import { DB_KINDS } from "../helpers/db.ts";

const fields = [
  { id: "name", type: "text", label: "Name", step: 1 },
  { id: "mail", type: "email", label: "Email", step: 1 },
  { id: "team", type: "text", label: "Team", step: 2 },
];
const de = {
  title: "Ausflug",
  fields: { name: { label: "Ihr Name" }, mail: { label: "E-Mail" }, team: { label: "Ihr Team" } },
};

/** The page's script chunks named like `partial.<hash>.js`, as the page asks for them. */
const chunksOf = (page: Page) => {
  const asked: string[] = [];
  page.on("request", (r) => {
    const name = /\/_astro\/([a-z-]+)\.[^/]+\.js$/.exec(r.url())?.[1];
    if (name) asked.push(name);
  });
  return asked;
};

describe.each(DB_KINDS)("the emailed resume link in a browser (%s)", (kind) => {
  let suite: PageSuite;
  beforeAll(async () => {
    suite = await startPageSuite({ db: kind });
    for (const body of [
      {
        title: "Trip",
        slug: "trip",
        humanness: false,
        languages: ["de"],
        settings: { partial: true },
        fields,
        translations: { de },
      },
      { title: "Plain", slug: "plain", humanness: false, fields },
    ]) {
      const created = await suite.api("POST", "/api/forms", { body });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
  }, 180_000);
  afterAll(async () => {
    await suite?.close();
  });

  it("loads partial saving only on the pages of forms that have it", async () => {
    const plain = await suite.context.newPage();
    const asked = chunksOf(plain);
    const saves: string[] = [];
    plain.on("request", (r) => r.url().includes("/partial") && saves.push(r.url()));
    await plain.goto(`${suite.server.url}/@me/plain`);
    await plain.getByLabel("Name").fill("Ada");
    await plain.getByLabel("Email").fill("ada@example.com");
    await plain.getByRole("button", { name: "Next" }).click();
    await plain.getByLabel("Team").waitFor({ state: "visible" });
    expect(asked).toContain("form-element");
    expect(asked).not.toContain("partial");
    expect(saves).toEqual([]);
    await plain.close();
  });

  it("emails a German link that continues the German page in another context, completed as one response", async () => {
    const page = await suite.context.newPage();
    const asked = chunksOf(page);
    await page.goto(`${suite.server.url}/@me/trip/de`);
    await page.getByLabel("Ihr Name").fill("Grete");
    await page.getByLabel("E-Mail").fill("grete@example.com");
    await page.getByRole("button", { name: "Weiter" }).click();
    await page.getByLabel("Ihr Team").waitFor({ state: "visible" });
    expect(asked).toContain("partial");

    // the email, read from the outbox (embedded mode keeps it there)
    const ctx = suite.server.ctx;
    let mail: { subject: string; text_body: string } | undefined;
    for (let i = 0; i < 100 && !mail?.text_body; i++) {
      await drainOutbox(ctx, 50);
      [mail] = await ctx.db.query<{ subject: string; text_body: string }>(
        "select subject, text_body from outbox where kind = 'resume' and recipients ->> 0 = 'grete@example.com'",
      );
      if (!mail?.text_body) await new Promise((r) => setTimeout(r, 100));
    }
    expect(mail?.subject).toBe("Weiter ausfüllen: Ausflug");
    const link = /https?:\/\/\S+/.exec(mail!.text_body)![0];
    expect(link).toMatch(new RegExp(`^${suite.server.url}/@me/trip/de\\?resume=[\\w-]+$`));
    const [partial] = (await suite.api("GET", "/api/forms/trip/responses?status=partial")).body
      .responses;
    expect(partial).toMatchObject({ status: "partial", payload: { name: "Grete" } });

    // another device: the link alone
    const other = await suite.context.browser()!.newContext();
    try {
      const elsewhere = await other.newPage();
      await elsewhere.goto(link);
      await elsewhere.getByLabel("Ihr Team").waitFor({ state: "visible" });
      await elsewhere.getByLabel("Ihr Team").fill("Kern");
      await elsewhere.getByRole("button", { name: "Zurück" }).click();
      expect(await elsewhere.getByLabel("Ihr Name").inputValue()).toBe("Grete");
      expect(await elsewhere.getByLabel("E-Mail").inputValue()).toBe("grete@example.com");
      await elsewhere.getByRole("button", { name: "Weiter" }).click();
      await elsewhere.getByRole("button", { name: "Absenden" }).click();
      await elsewhere.locator(".fd-done").waitFor();
    } finally {
      await other.close();
    }
    const all = (await suite.api("GET", "/api/forms/trip/responses?status=all")).body;
    expect(all.total).toBe(1);
    expect(all.responses[0]).toMatchObject({
      id: partial.id,
      lang: "de",
      payload: { name: "Grete", mail: "grete@example.com", team: "Kern" },
    });
    expect((await suite.api("GET", "/api/forms/trip/responses?status=partial")).body.total).toBe(0);
    const [left] = await ctx.db.query<{ n: number }>(
      "select count(*)::int as n from outbox where kind = 'resume'",
    );
    expect(left!.n).toBe(0);
    expect(suite.errors).toEqual([]);
  });
});
