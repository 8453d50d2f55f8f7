// The page on a phone (390 px wide), light and dark (SPEC §13, issue 14's polish list).
import AxeBuilder from "@axe-core/playwright";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PageSuite, startPageSuite } from "../helpers/browser.ts";

let suite: PageSuite;

beforeAll(async () => {
  suite = await startPageSuite();
  await suite.api("POST", "/api/forms", {
    body: {
      title: "Phone",
      slug: "phone",
      humanness: false,
      branding: { primary_color: "#1e1b4b" },
      fields: [
        { id: "intro", type: "statement", label: "Two minutes, four questions." },
        { id: "name", type: "text", label: "Your name" },
        { id: "email", type: "email", label: "Email" },
        { id: "phone", type: "text", label: "Phone" },
        { id: "nps", type: "nps", label: "Recommend us?", low_label: "No", high_label: "Yes" },
        { id: "stars", type: "rating", label: "Overall" },
      ],
    },
  });
}, 180_000);
afterAll(async () => {
  await suite?.close();
});

async function phone(scheme: "light" | "dark"): Promise<Page> {
  const context = await suite.context.browser()!.newContext({
    viewport: { width: 390, height: 844 },
    colorScheme: scheme,
  });
  const page = await context.newPage();
  await page.goto(`${suite.server.url}/@me/phone`);
  return page;
}

describe("on a phone", () => {
  it("gives NPS buttons at least 44 px in two rows, 0–5 and 6–10", async () => {
    const page = await phone("light");
    const boxes = await page
      .locator(".fd-scale-nps .fd-pill")
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect()));
    expect(boxes).toHaveLength(11);
    for (const b of boxes) expect(b.width).toBeGreaterThanOrEqual(44);
    const rows = [...new Set(boxes.map((b) => Math.round(b.top)))];
    expect(rows).toHaveLength(2);
    expect(boxes.filter((b) => Math.round(b.top) === rows[0])).toHaveLength(6);
    await page.context().close();
  });

  it("fills in who the respondent is, shows rating as stars with the value in words, and statements as body text", async () => {
    const page = await phone("light");
    await expect(page.getByLabel("Your name").getAttribute("autocomplete")).resolves.toBe("name");
    await expect(page.getByLabel("Email").getAttribute("autocomplete")).resolves.toBe("email");
    await expect(page.getByLabel("Phone").getAttribute("autocomplete")).resolves.toBe("tel");
    await expect(page.getByLabel("Phone").getAttribute("type")).resolves.toBe("tel");
    await page.getByRole("radio", { name: "3 of 5 stars" }).check();
    await expect(page.locator("[data-stars]").textContent()).resolves.toBe("3 of 5 stars");
    const colours = await page.evaluate(() => {
      const of = (s: string) => getComputedStyle(document.querySelector(s)!);
      return [of(".fd-statement").color, of(".fd-label").color, of(".fd-statement").fontSize];
    });
    expect(colours[0]).toBe(colours[1]);
    expect(Number.parseFloat(colours[2]!)).toBeGreaterThanOrEqual(16);
    await page.context().close();
  });

  it.each(["light", "dark"] as const)(
    "has no axe violations in %s mode, contrast included",
    async (scheme) => {
      const page = await phone(scheme);
      await page.getByRole("radio", { name: "9", exact: true }).check();
      await page.getByLabel("Your name").focus();
      const dark = await page.evaluate(() => getComputedStyle(document.body).color);
      if (scheme === "dark") expect(dark).not.toBe("rgb(15, 23, 42)");
      const result = await new AxeBuilder({ page }).analyze();
      expect(
        result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(", ")}`),
      ).toEqual([]);
      await page.context().close();
    },
  );
});
