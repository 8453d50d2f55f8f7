import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { holdChunks, type PageSuite, startPageSuite } from "../helpers/browser.ts";

let suite: PageSuite;

beforeAll(async () => {
  suite = await startPageSuite();
}, 180_000);
afterAll(async () => {
  await suite?.close();
});

/** A form of one ranking, Red, Green and Blue, published at /@me/<slug>. */
const rankingForm = (title: string, slug: string) =>
  suite.api("POST", "/api/forms", {
    body: {
      title,
      slug,
      humanness: false,
      fields: [{ id: "top", type: "ranking", label: "Top", options: ["Red", "Green", "Blue"] }],
    },
  });

describe("keyboard use of the respondent pages", () => {
  it("treats Enter before the last page as Next", async () => {
    await suite.api("POST", "/api/forms", {
      body: {
        title: "Steps",
        slug: "steps",
        humanness: false,
        fields: [
          { id: "a", type: "text", label: "First", step: 1 },
          { id: "b", type: "text", label: "Second", step: 2 },
        ],
      },
    });
    const page = await suite.open("/@me/steps");
    await page.getByLabel("First").fill("one");
    await page.keyboard.press("Enter");
    await page.getByLabel("Second").waitFor();
    expect(await page.getByLabel("First").isVisible()).toBe(false);
    expect(await suite.api("GET", "/api/forms/steps/responses").then((r) => r.body.total)).toBe(0);
    await page.getByLabel("Second").fill("two");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Thank you" }).waitFor();
    expect((await suite.latest("steps"))?.payload).toEqual({ a: "one", b: "two" });
  });

  it("can be completed with the keyboard alone, ranking and matrix included", async () => {
    await suite.api("POST", "/api/forms", {
      body: {
        title: "Keyboard",
        slug: "keyboard",
        fields: [
          { id: "name", type: "text", label: "Name", required: true },
          {
            id: "order",
            type: "ranking",
            label: "Order",
            options: ["Alpha", "Beta", "Gamma"],
            required: true,
          },
          {
            id: "grid",
            type: "matrix",
            label: "Grid",
            rows: [
              { id: "speed", label: "Speed" },
              { id: "price", label: "Price" },
            ],
            columns: ["Bad", "Good"],
          },
        ],
      },
    });
    const page = await suite.open("/@me/keyboard");
    const focused = () =>
      page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        return (
          el?.getAttribute("aria-label") ??
          el?.getAttribute("name") ??
          el?.textContent?.trim() ??
          ""
        );
      });
    /** Presses Tab until the focused control's name matches (keyboard only; fails if never). */
    const tabTo = async (name: string) => {
      for (let i = 0; i < 25; i++) {
        await page.keyboard.press("Tab");
        if ((await focused()) === name) return;
      }
      throw new Error(`Tab never reached ${name}`);
    };
    await tabTo("name");
    await page.keyboard.type("Kay");
    await tabTo("Move Alpha down");
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    await tabTo("Speed: Bad");
    await page.keyboard.press("ArrowRight");
    await tabTo("Price: Bad");
    await page.keyboard.press("Space");
    await tabTo("Submit");
    await page.keyboard.press("Enter");
    await page.getByRole("heading", { name: "Thank you" }).waitFor({ timeout: 30_000 });
    expect((await suite.latest("keyboard"))?.payload).toEqual({
      name: "Kay",
      order: ["Beta", "Gamma", "Alpha"],
      grid: { speed: "Good", price: "Bad" },
    });
  });

  it("reorders a ranking with Alt+Arrow keys and announces each move", async () => {
    await rankingForm("Alt keys", "alt-keys");
    const page = await suite.open("/@me/alt-keys");
    await page.getByRole("button", { name: "Move Red down" }).focus();
    await page.keyboard.press("Alt+ArrowDown");
    await page.keyboard.press("Alt+ArrowDown");
    await expect(page.locator("[data-rank-status]").textContent()).resolves.toBe(
      "Red moved to position 3 of 3",
    );
    await page.getByRole("button", { name: "Move Blue up" }).focus();
    await page.keyboard.press("Alt+ArrowUp");
    await page.keyboard.press("ArrowUp"); // without Alt the key does not reorder
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("heading", { name: "Thank you" }).waitFor();
    expect((await suite.latest("alt-keys"))?.payload).toEqual({ top: ["Blue", "Green", "Red"] });
  });

  it("makes the moves pressed before the ranking's script arrives once it has", async () => {
    await rankingForm("Slow line", "slow-line");
    let chunk!: Awaited<ReturnType<typeof holdChunks>>;
    const page = await suite.open("/@me/slow-line", {
      before: async (p) => (chunk = await holdChunks(p, "**/_astro/ranking.*.js")),
      loaded: "domcontentloaded",
    });
    await chunk.requested;
    await page.getByRole("button", { name: "Move Red down" }).focus();
    await page.keyboard.press("Enter");
    await page.keyboard.press("Enter");
    expect(
      await page.locator("li[data-value]").evaluateAll((l) => l.map((li) => li.dataset.value)),
    ).toEqual(["Red", "Green", "Blue"]);
    chunk.release();
    await expect
      .poll(() => page.locator("[data-rank-status]").textContent())
      .toBe("Red moved to position 3 of 3");
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("heading", { name: "Thank you" }).waitFor();
    expect((await suite.latest("slow-line"))?.payload).toEqual({ top: ["Green", "Blue", "Red"] });
  });

  it("runs without script errors", () => {
    expect(suite.errors).toEqual([]);
  });
});
