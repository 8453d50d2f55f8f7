// SPEC §24 in a browser, on a phone and a desktop: the quote example's respondent sees the total
// follow each key they type, follows a jump past a page, and reaches the ending its answers
// choose; the server stores that ending and those variables. The page loads the logic chunk
// only for a form with logic, and nothing shifts as it starts (layout shift ≤ 0.02).
import { readFileSync } from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseFormFile } from "../../src/core/form-file.ts";
import { type PageSuite, startPageSuite } from "../helpers/browser.ts";

let suite: PageSuite;
const parsed = parseFormFile(
  readFileSync(new URL("../fixtures/examples/quote.md", import.meta.url), "utf8"),
  "quote.md",
);
if (!parsed.ok) throw new Error("quote.md does not parse");
const { tests: _tests, ...quote } = parsed.form;

beforeAll(async () => {
  suite = await startPageSuite();
  const created = await suite.api("POST", "/api/forms", { body: { ...quote, humanness: false } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await suite.api("POST", "/api/forms", {
    body: {
      title: "Plain",
      slug: "plain",
      humanness: false,
      fields: [
        { id: "ok", type: "yes_no", label: "OK?" },
        {
          id: "why",
          type: "text",
          label: "Why not?",
          show_if: { field: "ok", op: "eq", value: "no" },
        },
      ],
    },
  });
}, 180_000);
afterAll(async () => {
  await suite?.close();
});

/** A page at a size, counting layout shifts not caused by input and the scripts it fetched. */
async function open(path: string, viewport: { width: number; height: number }) {
  const context = await suite.context.browser()!.newContext({ viewport });
  const page = await context.newPage();
  const scripts: string[] = [];
  page.on("request", (r) => r.resourceType() === "script" && scripts.push(r.url()));
  page.on("pageerror", (e) => suite.errors.push(e.message));
  await page.addInitScript(() => {
    const w = window as unknown as { shifted: number };
    w.shifted = 0;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean }[])
        if (!e.hadRecentInput) w.shifted += e.value;
    }).observe({ type: "layout-shift", buffered: true });
  });
  await page.goto(`${suite.server.url}${path}`);
  return { page, scripts, close: () => context.close() };
}

const price = (page: Page) => page.locator('[data-field="price"] .fd-statement').textContent();
const shifted = (page: Page) =>
  page.evaluate(() => (window as unknown as { shifted: number }).shifted);

/** Types seats one key at a time; the statement's total after each key. */
async function typeSeats(page: Page, keys: string) {
  const totals: string[] = [];
  const seats = page.getByLabel("How many seats?");
  await seats.click();
  for (const key of keys) {
    await seats.press(key);
    totals.push((await price(page))!);
  }
  return totals;
}

describe.each([
  ["phone", { width: 390, height: 844 }],
  ["desktop", { width: 1280, height: 800 }],
] as const)("the quote example on a %s", (_name, viewport) => {
  it("updates the total as they type, jumps past a page for Enterprise, and ends at sales", async () => {
    const { page, scripts, close } = await open("/@me/quote", viewport);
    await expect(price(page)).resolves.toBe("Your price: 0 € a month");
    await page.getByRole("radio", { name: "Business" }).check();
    expect(await typeSeats(page, "12")).toEqual([
      "Your price: 12 € a month",
      "Your price: 144 € a month",
    ]);
    await page.getByRole("radio", { name: "Yearly" }).check();
    await expect(price(page)).resolves.toBe("Your price: 129.6 € a month");
    // Enterprise jumps to "About you": the needs page is skipped, the price hidden
    await page.getByRole("radio", { name: "Enterprise" }).check();
    await expect(page.locator('[data-field="price"]').isHidden()).resolves.toBe(true);
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByLabel("Company").waitFor();
    await expect(page.locator("[data-step]").textContent()).resolves.toBe(
      "Step 2 of 2 · About you",
    );
    await expect(page.getByText("Which integrations do you need?").isHidden()).resolves.toBe(true);
    await page.getByLabel("Company").fill("Acme");
    await page.getByLabel("Work email").fill("it@acme.test");
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("heading", { name: "A specialist will call you" }).waitFor();
    await expect(page.locator(".fd-ending").textContent()).resolves.toContain("Thank you, Acme.");
    const stored = await suite.latest("quote");
    expect(stored).toMatchObject({
      ending: "sales",
      variables: { per_seat: 8, total: 86.4 },
      payload: { plan: "Enterprise", seats: 12, billing: "Yearly", company: "Acme" },
    });
    expect(scripts.some((u) => /\/logic\.[\w-]+\.js$/.test(u))).toBe(true);
    expect(await shifted(page)).toBeLessThanOrEqual(0.02);
    expect(suite.errors).toEqual([]);
    await close();
  });

  it("walks the needs page for Business and ends at the quote, its total piped into the ending", async () => {
    const { page, close } = await open("/@me/quote", viewport);
    await page.getByRole("radio", { name: "Business" }).check();
    await typeSeats(page, "6");
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("checkbox", { name: "SSO" }).check();
    // a group: SSO chosen and at least five seats
    await page.getByLabel("Your SSO provider").waitFor();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByLabel("Company").fill("Beta");
    await page.getByLabel("Work email").fill("it@beta.test");
    // back and forth keeps the path: the needs page again, then about you
    await page.getByRole("button", { name: "Back" }).click();
    await page.getByLabel("Your SSO provider").waitFor();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("heading", { name: "Your quote: 72 € a month" }).waitFor();
    expect(await suite.latest("quote")).toMatchObject({
      ending: "quote",
      variables: { per_seat: 12, total: 72 },
    });
    expect(suite.errors).toEqual([]);
    await close();
  });
});

describe("a form without logic", () => {
  it("loads no logic chunk; its plain show_if still works", async () => {
    const { page, scripts, close } = await open("/@me/plain", { width: 390, height: 844 });
    await page.getByRole("radio", { name: "No" }).check();
    await page.getByLabel("Why not?").waitFor();
    await page.getByRole("radio", { name: "Yes" }).check();
    await expect(page.getByLabel("Why not?").isHidden()).resolves.toBe(true);
    expect(scripts.some((u) => /\/logic\.[\w-]+\.js$/.test(u))).toBe(false);
    await close();
  });
});
