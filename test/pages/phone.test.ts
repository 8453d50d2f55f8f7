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
  await suite.api("POST", "/api/forms", {
    body: {
      title: "Steps",
      slug: "steps",
      humanness: false,
      settings: { progress_bar: true },
      fields: [
        { id: "stars", type: "rating", label: "Overall", step: 1 },
        { id: "why", type: "text", label: "Why?", step: 2 },
      ],
    },
  });
}, 180_000);
afterAll(async () => {
  await suite?.close();
});

async function phone(scheme: "light" | "dark", width = 390, slug = "phone"): Promise<Page> {
  const context = await suite.context.browser()!.newContext({
    viewport: { width, height: 844 },
    colorScheme: scheme,
  });
  const page = await context.newPage();
  await page.goto(`${suite.server.url}/@me/${slug}`);
  return page;
}

describe("on a phone", () => {
  it("keeps the NPS row 0–10 on one line at 360 px, each button at least 24 px wide and 44 px tall", async () => {
    const page = await phone("light", 360);
    const boxes = await page
      .locator(".fd-scale-nps .fd-pill")
      .evaluateAll((els) => els.map((e) => e.getBoundingClientRect()));
    expect(boxes).toHaveLength(11);
    for (const b of boxes) {
      expect(b.width).toBeGreaterThanOrEqual(24);
      expect(b.height).toBeGreaterThanOrEqual(44);
    }
    expect(new Set(boxes.map((b) => Math.round(b.top))).size).toBe(1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      360,
    );
    await page.context().close();
  });

  it.each(["light", "dark"] as const)(
    "in %s mode: stars at 3:1 against the card, a filled bright button, a visible progress bar",
    async (scheme) => {
      const page = await phone(scheme, 390, "steps");
      const c = await page.evaluate(() => {
        // the colour as the screen shows it: paint it and read the pixel (color-mix included)
        const canvas = document.createElement("canvas").getContext("2d")!;
        const rgb = (css: string) => {
          canvas.clearRect(0, 0, 1, 1);
          canvas.fillStyle = css;
          canvas.fillRect(0, 0, 1, 1);
          return [...canvas.getImageData(0, 0, 1, 1).data.slice(0, 3)];
        };
        const style = (s: string) => getComputedStyle(document.querySelector(s)!);
        const star = document.querySelector(".fd-star")!;
        const empty = getComputedStyle(star).color;
        (star.querySelector("input") as HTMLInputElement).checked = true;
        const chosen = getComputedStyle(star).color;
        return {
          card: rgb(style(".fd-card").backgroundColor),
          page: rgb(getComputedStyle(document.body).backgroundColor),
          empty: rgb(empty),
          chosen: rgb(chosen),
          button: rgb(style(".fd-nav .fd-primary").backgroundColor),
          buttonText: rgb(style(".fd-nav .fd-primary").color),
          track: rgb(style(".fd-progressbar").backgroundColor),
          fill: rgb(style(".fd-progressbar span").backgroundColor),
        };
      });
      const lum = ([r, g, b]: number[]) => {
        const f = (v: number) => {
          const s = v / 255;
          return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
        };
        return 0.2126 * f(r!) + 0.7152 * f(g!) + 0.0722 * f(b!);
      };
      const ratio = (a: number[], b: number[]) => {
        const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
        return (hi! + 0.05) / (lo! + 0.05);
      };
      expect(ratio(c.empty, c.card)).toBeGreaterThanOrEqual(3);
      expect(ratio(c.chosen, c.card)).toBeGreaterThanOrEqual(3);
      expect(ratio(c.button, c.card)).toBeGreaterThanOrEqual(3);
      expect(ratio(c.button, c.buttonText)).toBeGreaterThanOrEqual(4.5);
      // the call to action is the page's high-contrast, filled thing in both modes (SPEC §21):
      // AAA text on it, and as far from the card as its text is (a mid grey read as disabled)
      expect(ratio(c.button, c.buttonText)).toBeGreaterThanOrEqual(7);
      expect(ratio(c.button, c.card)).toBeGreaterThanOrEqual(7);
      expect(ratio(c.fill, c.card)).toBeGreaterThanOrEqual(3);
      expect(ratio(c.track, c.card)).toBeGreaterThan(1.25);
      await page.context().close();
    },
  );

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
