// SPEC §26 "Results in the browser": a viewer signs in with a one-time link sent by email (through
// the outbox), gets a 12-hour HttpOnly SameSite=Lax session, filters a form's responses, opens
// one, downloads them as XLSX (read back: labels, typed cells), exports CSV and JSON, and cannot
// change the form; every page is accessible (axe) on a phone and a desktop; the reads are in the
// audit log; an editor's one change takes the session's CSRF token.
import AxeBuilder from "@axe-core/playwright";
import ExcelJS from "exceljs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MailMessage } from "../../functions/context.ts";
import { drainOutbox } from "../../functions/mail/sender.ts";
import { client } from "../helpers/api.ts";
import { launch, type SuiteBrowser } from "../helpers/browser.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const SIZES = { phone: { width: 360, height: 740 }, desktop: { width: 1280, height: 800 } };

async function noViolations(page: Page) {
  const result = await new AxeBuilder({ page }).analyze();
  expect(
    result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(", ")}`),
  ).toEqual([]);
}

describe.each(DB_KINDS)("results in the browser (%s)", { timeout: 180_000 }, (kind) => {
  let s: TestServer;
  let browser: SuiteBrowser;
  let api: ReturnType<typeof client>;
  const mail: MailMessage[] = [];

  beforeAll(async () => {
    s = await startTestServer({
      db: kind,
      mailer: {
        send: async (m) => {
          mail.push(m);
          return { id: `m${mail.length}` };
        },
      },
    });
    api = client(s.url, s.apiKey);
    browser = await launch();
    const created = await api("POST", "/api/forms", {
      body: {
        title: "Team survey",
        slug: "team",
        humanness: false,
        fields: [
          { id: "name", type: "text", label: "Your name" },
          { id: "score", type: "rating", label: "How was it?" },
        ],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    for (const [name, score] of [
      ["Ana", 5],
      ["Bo", 2],
      ["Cy", 4],
    ] as const)
      await api("POST", "/api/forms/team/submit", {
        key: null,
        body: { fields: { name, score } },
      });
    for (const [email, role] of [
      ["vera@example.com", "viewer"],
      ["ed@example.com", "editor"],
    ])
      expect((await api("POST", "/api/members", { body: { email, role } })).status).toBe(201);
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  /** Asks for a link in the page, lets the outbox send it, and answers the emailed link. */
  async function emailedLink(page: Page, email: string): Promise<string> {
    await page.goto(`${s.url}/results`);
    await page.getByLabel("Your email").fill(email);
    await page.getByRole("button", { name: "Send the link" }).click();
    await page.getByRole("heading", { name: "Check your email" }).waitFor();
    const before = mail.length;
    await drainOutbox(s.ctx);
    const sent = mail.slice(before).find((m) => m.to.includes(email));
    expect(sent?.subject).toBe("Sign in to Formdown results");
    return /https?:\/\/\S+\/results\/sign-in\/[A-Za-z0-9_-]+/.exec(sent!.text)![0];
  }

  for (const [size, viewport] of Object.entries(SIZES)) {
    it(`lets a viewer sign in by email, filter, open a response and export (${size})`, async () => {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      await page.goto(`${s.url}/results`);
      await noViolations(page);
      const link = await emailedLink(page, "vera@example.com");
      await page.goto(link);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("heading", { name: "Forms" }).waitFor();

      const [cookie] = await context.cookies();
      expect(cookie).toMatchObject({ name: "fd_results", httpOnly: true, sameSite: "Lax" });
      const hours = (cookie!.expires * 1000 - Date.now()) / 3_600_000;
      expect(hours).toBeGreaterThan(11.9);
      expect(hours).toBeLessThanOrEqual(12);
      await noViolations(page);

      await page.getByRole("link", { name: "Team survey" }).click();
      await expect(page.getByRole("button", { name: "Close the form" }).count()).resolves.toBe(0);
      await page.getByRole("link", { name: "Responses" }).click();
      await page.getByLabel("Question").selectOption("score");
      await page.getByLabel("Condition").selectOption("gte");
      await page.getByLabel("Value").fill("4");
      await page.getByRole("button", { name: "Filter" }).click();
      await page.getByText("2 responses").waitFor();
      const names = await page.locator("tbody td:first-of-type").allTextContents();
      expect(names.sort()).toEqual(["Ana", "Cy"]);
      const box = await page.locator("main").boundingBox();
      expect(box!.width).toBeLessThanOrEqual(viewport.width);
      await noViolations(page);

      // the filtered responses as a spreadsheet, downloaded by the page's own button
      const [download] = await Promise.all([
        page.waitForEvent("download"),
        page.getByRole("link", { name: "Download XLSX" }).click(),
      ]);
      expect(download.suggestedFilename()).toBe("team-responses.xlsx");
      const book = new ExcelJS.Workbook();
      await book.xlsx.readFile((await download.path())!);
      const rows: unknown[][] = [];
      book.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
      expect(rows[0]).toEqual(["Response", "Submitted at", "Your name", "How was it?"]);
      expect(
        rows
          .slice(1)
          .map((r) => [r[2], r[3]])
          .sort(),
      ).toEqual([
        ["Ana", 5],
        ["Cy", 4],
      ]);
      expect(rows[1]![1]).toBeInstanceOf(Date);

      await page.locator("tbody th a").first().click();
      await page.getByRole("heading", { name: /^Response/ }).waitFor();
      await expect(page.locator("table").textContent()).resolves.toMatch(/How was it\?\s*[45]/);
      await noViolations(page);

      const csv = await context.request.get(`${s.url}/results/forms/team/export?format=csv`);
      expect(csv.status()).toBe(200);
      expect(csv.headers()["content-disposition"]).toContain("team-responses.csv");
      expect(await csv.text()).toContain("Bo");
      const json = await context.request.get(
        `${s.url}/results/forms/team/export?format=json&field=score&op=lte&value=2`,
      );
      expect((await json.json()).map((r: any) => r.payload.name)).toEqual(["Bo"]);

      // a viewer changes nothing, even with the session's own token
      const csrf = await page.locator('input[name="csrf"]').first().inputValue();
      const change = await context.request.post(`${s.url}/results/forms/team/close`, {
        form: { csrf },
      });
      expect(change.status()).toBe(403);
      expect((await api("GET", "/api/forms/team")).body.access.mode).toBe("public");

      // the link worked once
      const again = await context.request.post(link, { maxRedirects: 0 });
      expect(again.status()).toBe(400);

      const { entries } = (await api("GET", "/api/audit?action=responses&limit=200")).body;
      const pages = entries.filter(
        (e: any) => e.actor.name === "vera@example.com" && e.detail.via === "results",
      );
      expect(pages.map((e: any) => e.action)).toEqual(
        expect.arrayContaining(["responses.list", "responses.read", "responses.export"]),
      );
      expect(pages.find((e: any) => e.action === "responses.list" && e.detail.field)).toMatchObject(
        {
          form: "team",
          detail: { field: "score", op: "gte", value: "4" },
        },
      );

      await page.getByRole("button", { name: "Sign out" }).click();
      await page.getByRole("heading", { name: /Sign in/ }).waitFor();
      expect(await context.cookies()).toEqual([]);
      const after = await context.request.get(`${s.url}/results/forms/team/responses`);
      expect(after.status()).toBe(401);
      await context.close();
    });
  }

  it("lets an editor close a form with the session's CSRF token, and nothing without it", async () => {
    const context = await browser.newContext({ viewport: SIZES.desktop });
    const page = await context.newPage();
    const link = await emailedLink(page, "ed@example.com");
    await page.goto(link);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.goto(`${s.url}/results/forms/team`);
    const forged = await context.request.post(`${s.url}/results/forms/team/close`, {
      form: { csrf: "forged" },
    });
    expect(forged.status()).toBe(403);
    expect((await api("GET", "/api/forms/team")).body.access.mode).toBe("public");
    await page.getByRole("button", { name: "Close the form" }).click();
    await page.getByText("Access: closed").waitFor();
    expect((await api("GET", "/api/forms/team")).body.access.mode).toBe("closed");
    await api("PUT", "/api/forms/team/access", { body: { mode: "public" } });
    await context.close();
  });

  it("signs in with a key pasted once; a session ends at its expiry or when its member is removed", async () => {
    const added = await api("POST", "/api/members", {
      body: { email: "kim@example.com", role: "viewer" },
    });
    const context = await browser.newContext({ viewport: SIZES.phone });
    const page = await context.newPage();
    await page.goto(`${s.url}/results`);
    await page.getByLabel("API key").fill("fd_not-a-key");
    await page.getByRole("button", { name: "Sign in with the key" }).click();
    await page.getByText("That key is not valid.").waitFor();
    const signIn = async () => {
      await page.goto(`${s.url}/results`);
      await page.getByLabel("API key").fill(added.body.key.api_key);
      await page.getByRole("button", { name: "Sign in with the key" }).click();
      await page.getByRole("link", { name: "Team survey" }).waitFor();
    };
    await signIn();
    // hostile forms get a clear page: a control character, an oversized body
    for (const data of [
      `email=a%00b%40example.com`,
      `email=${"a".repeat(100_000)}%40example.com`,
    ]) {
      const res = await context.request.post(`${s.url}/results/sign-in`, {
        headers: { "content-type": "application/x-www-form-urlencoded" },
        data,
      });
      expect(res.status()).toBe(400);
      expect(await res.text()).toContain("Enter an email address.");
    }
    // a form posted from another site gets nothing, key or not
    const forged = await context.request.post(`${s.url}/results/key`, {
      headers: { origin: "https://evil.example" },
      form: { key: added.body.key.api_key },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(403);
    // the session ends at its expiry, whatever the cookie says
    await s.ctx.db.query(
      "update results_sessions set expires_at = now() - interval '1 second' where member_id = $1",
      [added.body.member.id],
    );
    expect((await context.request.get(`${s.url}/results/forms/team`)).status()).toBe(401);
    await signIn();
    await api("DELETE", `/api/members/${added.body.member.id}`);
    const gone = await context.request.get(`${s.url}/results/forms/team/responses`);
    expect(gone.status()).toBe(401);
    await context.close();
  });
});
