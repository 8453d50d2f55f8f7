import { readFile } from "node:fs/promises";
import AxeBuilder from "@axe-core/playwright";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensurePagesBuilt } from "../../functions/node/build-pages.ts";
import { client } from "../helpers/api.ts";
import { launch, type SuiteBrowser } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let s: TestServer;
let api: ReturnType<typeof client>;
let browser: SuiteBrowser;
let context: BrowserContext;
const errors: string[] = [];

async function open(path: string): Promise<Page> {
  const page = await context.newPage();
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${s.url}${path}`);
  return page;
}

const latest = async (slug: string) =>
  (await api("GET", `/api/forms/${slug}/responses?limit=1`)).body.responses[0];

beforeAll(async () => {
  await ensurePagesBuilt();
  s = await startTestServer();
  api = client(s.url, s.apiKey);
  for (const name of ["contact", "product-survey", "quiz"]) {
    const markdown = await readFile(
      new URL(`../fixtures/examples/${name}.md`, import.meta.url),
      "utf8",
    );
    expect((await api("PUT", `/api/forms/${name}`, { body: { markdown } })).status).toBe(201);
  }
  browser = await launch();
  context = await browser.newContext();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await s?.close();
});

describe("respondent pages", () => {
  it("fills and submits the contact form (ALTCHA solved in the page) and the API has the response", async () => {
    const page = await open("/@me/contact");
    const workers: string[] = [];
    page.on("worker", (w) => workers.push(w.url()));
    await page.getByLabel("Your name").fill("Ada Lovelace");
    await page.getByLabel("Email address").fill("ada@example.com");
    await page.getByLabel("What is it about?").selectOption("Feedback");
    await page.getByLabel("Message").fill("Lovely forms.");
    await page.getByRole("radio", { name: "Yes" }).check();
    await page.getByRole("button", { name: "Submit" }).click();
    await expect(
      page.getByRole("heading", { name: "Thank you" }).waitFor({ timeout: 30_000 }),
    ).resolves.toBeUndefined();
    // the proof of work ran in two workers, started by the first keystroke
    expect(workers.filter((u) => u.includes("solver-worker"))).toHaveLength(2);
    const r = await latest("contact");
    expect(r.payload).toEqual({
      name: "Ada Lovelace",
      email: "ada@example.com",
      topic: "Feedback",
      message: "Lovely forms.",
      reply: "yes",
    });
    const stats = (await api("GET", "/api/forms/contact")).body.stats;
    expect(stats.views).toBeGreaterThanOrEqual(1);
  });

  it("walks the survey one question at a time, with show_if, ranking (keys) and matrix", async () => {
    const page = await open("/@me/product-survey?utm_source=newsletter");
    await expect(page.getByRole("button", { name: "Submit" }).isVisible()).resolves.toBe(false);
    await page.getByRole("button", { name: "Next" }).click();
    await expect(page.getByText("Please answer this question.").first().isVisible()).resolves.toBe(
      true,
    );
    await page.getByRole("radio", { name: "3", exact: true }).focus();
    await page.keyboard.press("Space");
    await page.getByRole("button", { name: "Next" }).click();
    const why = page.getByLabel("What would make you score us higher?");
    await why.fill("Faster exports");
    await page.getByRole("button", { name: "Back" }).click();
    await page.getByRole("radio", { name: "9", exact: true }).check();
    await page.getByRole("button", { name: "Next" }).click(); // show_if now hides the follow-up
    await expect(page.getByText("How satisfied are you").isVisible()).resolves.toBe(true);
    await page.getByRole("radio", { name: "4 of 5 stars" }).check();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("radio", { name: "6", exact: true }).check();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("checkbox", { name: "Forms" }).check();
    await page.getByRole("button", { name: "Next" }).click();
    for (const [row, col] of [
      ["Speed", "Good"],
      ["Design", "Excellent"],
      ["Documentation", "Fair"],
    ]) {
      await page.getByRole("radio", { name: `${row}: ${col}` }).check();
    }
    await page.getByRole("button", { name: "Next" }).click();
    const down = page.getByRole("button", { name: "Move Price down" });
    await down.focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("radio", { name: "Engineering" }).check();
    await page.getByRole("button", { name: "Back" }).click();
    await page.getByRole("button", { name: "Move Support up" }).focus();
    await page.keyboard.press("Enter"); // a button press, not a submit
    await page.getByRole("button", { name: "Move Support down" }).focus();
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("heading", { name: "Thank you" }).waitFor({ timeout: 30_000 });
    const r = await latest("product-survey");
    expect(r.payload).toMatchObject({
      recommend: 9,
      satisfaction: 4,
      ease: 6,
      features: ["Forms"],
      aspects: { speed: "Good", design: "Excellent", docs: "Fair" },
      priorities: ["Reliability", "Integrations", "Price", "Support"],
      role: "Engineering",
      _hidden: { utm_source: "newsletter" },
    });
    expect(r.payload).not.toHaveProperty("disappointed");
  });

  it("shows a quiz score after submitting", async () => {
    const page = await open("/@me/quiz");
    await page.getByRole("radio", { name: "404" }).check();
    await page.getByRole("checkbox", { name: "GET" }).check();
    await page.getByRole("checkbox", { name: "HEAD" }).check();
    await page.getByRole("radio", { name: "No" }).check();
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByText(/Your score: 3 of 4 \(75%\) — Passed/).waitFor({ timeout: 30_000 });
    const html = await (await fetch(`${s.url}/@me/quiz`)).text();
    expect(html).not.toContain("404 is the status for a resource");
  });

  it("renders a form created over the API at once, escapes author HTML, and a page built before a change still submits (version grace)", async () => {
    const evil = "<img src=x onerror=alert(1)>";
    await api("POST", "/api/forms", {
      body: {
        title: `Hi ${evil}`,
        slug: "fresh",
        humanness: false,
        body: `Read **this** ${evil}`,
        fields: [{ id: "note", type: "text", label: `Note ${evil}`, max_length: 50 }],
      },
    });
    const page = await open("/@me/fresh");
    await expect(page.getByRole("heading", { level: 1 }).textContent()).resolves.toBe(`Hi ${evil}`);
    await expect(page.locator("img").count()).resolves.toBe(0);
    await page.getByLabel(`Note ${evil}`).fill("a rather long note, longer than ten");
    await api("PATCH", "/api/forms/fresh", {
      body: { fields: [{ id: "note", type: "text", label: "Note", max_length: 10 }] },
    });
    // the page states the version it was built from: its answers are checked against that one
    // while the grace lasts (SPEC §16), so the change does not turn them away
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("heading", { name: "Thank you" }).waitFor({ timeout: 30_000 });
    const [latest] = (await api("GET", "/api/forms/fresh/responses?limit=1")).body.responses;
    expect(latest).toMatchObject({
      version: 1,
      payload: { note: "a rather long note, longer than ten" },
    });
  });

  it("has no axe violations on a page holding every field type", async () => {
    const fields = [
      { id: "t", type: "text", label: "Text" },
      { id: "e", type: "email", label: "Email" },
      { id: "ta", type: "textarea", label: "Long" },
      { id: "n", type: "number", label: "Number" },
      { id: "r", type: "radio", label: "Radio", options: ["A", "B"] },
      { id: "c", type: "checkbox", label: "Check", options: ["A", "B"] },
      { id: "s", type: "select", label: "Select", options: ["A", "B"] },
      { id: "d", type: "date", label: "Date" },
      { id: "i", type: "image", label: "Image" },
      { id: "f", type: "file", label: "File" },
      { id: "ra", type: "rating", label: "Rating" },
      { id: "sc", type: "scale", label: "Scale", low_label: "Low", high_label: "High" },
      { id: "np", type: "nps", label: "NPS" },
      { id: "y", type: "yes_no", label: "Yes or no" },
      { id: "rk", type: "ranking", label: "Rank", options: ["A", "B", "C"] },
      {
        id: "m",
        type: "matrix",
        label: "Matrix",
        rows: [{ id: "x", label: "X" }],
        columns: ["Bad", "Good"],
      },
      { id: "st", type: "statement", label: "Just so you know" },
    ];
    await api("POST", "/api/forms", { body: { title: "Everything", slug: "everything", fields } });
    const page = await open("/@me/everything");
    const result = await new AxeBuilder({ page }).analyze();
    expect(
      result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(", ")}`),
    ).toEqual([]);
  });

  it("loads the 3D viewer only on pages that show a model", async () => {
    await api("POST", "/api/forms", {
      body: {
        title: "Model",
        slug: "model",
        humanness: false,
        fields: [
          {
            id: "like",
            type: "yes_no",
            label: "Like it?",
            media: { type: "model3d", url: "https://models.example.com/chair.glb", alt: "A chair" },
          },
        ],
      },
    });
    // not through open(): the example model host does not resolve here, which the viewer reports
    const page = await context.newPage();
    await page.goto(`${s.url}/@me/model`);
    await page.waitForFunction(() => Boolean(customElements.get("model-viewer")), null, {
      timeout: 20_000,
    });
    expect(await page.locator("model-viewer").getAttribute("alt")).toBe("A chair");
    const plain = await open("/@me/contact");
    await plain.waitForLoadState("networkidle");
    expect(await plain.evaluate(() => Boolean(customElements.get("model-viewer")))).toBe(false);
  });

  it("renders a survey's first question on the server: nothing moves after load (no layout shift)", async () => {
    const html = await (await fetch(`${s.url}/@me/product-survey`)).text();
    const boxes = [
      ...html.matchAll(
        /<fieldset[^>]*data-field="([^"]+)"[^>]*>|<div[^>]*data-field="([^"]+)"[^>]*>/g,
      ),
    ];
    const shown = boxes.filter((m) => !/\shidden[\s>=]/.test(m[0])).map((m) => m[1] ?? m[2]);
    expect(shown).toEqual(["recommend"]);
    expect(html).not.toMatch(/<a[^>]*class="fd-continue"/);
    expect(html).toMatch(/<meta name="description" content="[^"]+"/);
    for (const size of [
      { width: 1350, height: 940 },
      { width: 412, height: 823 },
    ]) {
      const page = await context.newPage();
      await page.setViewportSize(size);
      await page.addInitScript(() => {
        (window as unknown as { shift: number }).shift = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries() as unknown as {
            value: number;
            hadRecentInput: boolean;
          }[])
            if (!entry.hadRecentInput)
              (window as unknown as { shift: number }).shift += entry.value;
        }).observe({ type: "layout-shift", buffered: true });
      });
      await page.goto(`${s.url}/@me/product-survey`);
      await page.getByRole("button", { name: "Next" }).waitFor();
      await page.evaluate(
        () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 500))),
      );
      const shift = await page.evaluate(() => (window as unknown as { shift: number }).shift);
      expect(shift, `layout shift at ${size.width}×${size.height}`).toBeLessThanOrEqual(0.02);
      await page.close();
    }
  });

  it("shows every question of a survey at once without JavaScript, with Submit and no Next", async () => {
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const page = await noScript.newPage();
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    await page.goto(`${s.url}/@me/product-survey`);
    const boxes = page.locator("[data-field]");
    expect(await boxes.count()).toBe(9);
    // the steps the script would reveal one at a time, and the show_if fields it would evaluate
    for (const box of await boxes.all())
      expect(await box.isVisible(), `${await box.getAttribute("data-field")}`).toBe(true);
    await page.getByLabel("What would make you score us higher?").fill("A dark mode");
    await page.getByRole("radio", { name: "Excellent" }).first().check();
    expect(await page.getByRole("button", { name: "Submit" }).isVisible()).toBe(true);
    expect(await page.getByRole("button", { name: "Next" }).isVisible()).toBe(false);
    // "1 of 8" and an empty progress bar would say what no script will ever move on
    expect(await page.locator("[data-step]").isVisible()).toBe(false);
    expect(await page.locator(".fd-progressbar").isVisible()).toBe(false);
    await noScript.close();
  });

  it("describes the page with the form's intro, escaped, or its title", async () => {
    const body = 'Tell us what <b>you</b> think of "Rock & Roll" <3\n\nThe rest.';
    const created = await api("POST", "/api/forms", {
      body: {
        title: "Q & A",
        slug: "described",
        humanness: false,
        body,
        fields: [{ id: "a", type: "text" }],
      },
    });
    expect(created.status).toBe(201);
    const html = await (await fetch(`${s.url}/@me/described`)).text();
    // the first paragraph, its tags dropped; a quote or ampersand cannot end the attribute (a
    // `<` inside a quoted attribute is plain text, and stays as it is)
    expect(html).toContain(
      '<meta name="description" content="Tell us what you think of &quot;Rock &amp; Roll&quot; <3">',
    );
    const page = await open("/@me/described");
    expect(await page.locator('meta[name="description"]').getAttribute("content")).toBe(
      'Tell us what you think of "Rock & Roll" <3',
    );
    await page.close();
    await api("POST", "/api/forms", {
      body: {
        title: 'Say "hi" & go',
        slug: "untold",
        humanness: false,
        fields: [{ id: "a", type: "text" }],
      },
    });
    const bare = await (await fetch(`${s.url}/@me/untold`)).text();
    expect(bare).toContain('<meta name="description" content="Say &quot;hi&quot; &amp; go">');
  });

  it("runs without script errors or CSP violations", () => {
    // other console noise here is expected: the example media hosts do not resolve offline,
    // and one test provokes a 400 on purpose
    expect(errors.filter((e) => !e.startsWith("Failed to load resource"))).toEqual([]);
    expect(errors.some((e) => e.includes("404"))).toBe(false);
  });
});
