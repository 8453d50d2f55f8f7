import type { Request as PwRequest } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PageSuite, startPageSuite } from "../helpers/browser.ts";

let suite: PageSuite;

beforeAll(async () => {
  suite = await startPageSuite();
}, 180_000);
afterAll(async () => {
  await suite?.close();
});

describe("what the page does between the respondent and the API", () => {
  it("retries a submit whose answer was lost with the same Idempotency-Key and stores it once", async () => {
    const created = await suite.api("POST", "/api/forms", {
      body: {
        title: "Retry",
        slug: "retry",
        fields: [{ id: "word", type: "text", label: "A word", required: true }],
      },
    });
    const page = await suite.open("/@me/retry");
    const keys: string[] = [];
    const urls: string[] = [];
    await page.route("**/api/forms/*/submit", async (route) => {
      keys.push((await route.request().headerValue("idempotency-key")) ?? "");
      urls.push(new URL(route.request().url()).pathname);
      if (keys.length > 1) return route.continue();
      await route.fetch(); // the server stores it; the answer never reaches the page
      await route.abort("failed");
    });
    await page.getByLabel("A word").fill("twice");
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByText("Could not reach the server").waitFor({ timeout: 30_000 });
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("heading", { name: "Thank you" }).waitFor();
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    // a page the server rendered names its form by id, not by its slug (SPEC §22)
    expect(urls).toEqual(Array(2).fill(`/api/forms/${created.body.form_id}/submit`));
    const list = (await suite.api("GET", "/api/forms/retry/responses")).body;
    expect(list.total).toBe(1);
    expect(list.responses[0].payload).toEqual({ word: "twice" });
    const stats = (await suite.api("GET", "/api/forms/retry/stats")).body;
    expect([stats.views, stats.starts]).toEqual([1, 1]);
  });

  it("sends a submit again after a stopping instance's 503 with Retry-After, and stores it once", async () => {
    await suite.api("POST", "/api/forms", {
      body: {
        title: "Stopping",
        slug: "stopping",
        humanness: false,
        fields: [{ id: "word", type: "text", label: "A word", required: true }],
      },
    });
    const page = await suite.open("/@me/stopping");
    const keys: string[] = [];
    await page.route("**/api/forms/*/submit", async (route) => {
      keys.push((await route.request().headerValue("idempotency-key")) ?? "");
      if (keys.length > 1) return route.continue();
      // what a draining instance answers before it reads the request (SPEC §17)
      await route.fulfill({
        status: 503,
        headers: { "retry-after": "1", connection: "close", "content-type": "application/json" },
        body: JSON.stringify({ error: "The server is stopping.", code: "unavailable" }),
      });
    });
    await page.getByLabel("A word").fill("once");
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("heading", { name: "Thank you" }).waitFor({ timeout: 30_000 });
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
    const list = (await suite.api("GET", "/api/forms/stopping/responses")).body;
    expect(list.responses.map((r: { payload: unknown }) => r.payload)).toEqual([{ word: "once" }]);
  });

  it("uploads a file with its checks first, waits for it at Submit, and stores its URL", async () => {
    await suite.api("POST", "/api/forms", {
      body: {
        title: "Upload",
        slug: "upload",
        humanness: false,
        fields: [
          {
            id: "doc",
            type: "file",
            label: "Your notes",
            accept: ["text/plain"],
            max_mb: 1,
            required: true,
          },
        ],
      },
    });
    const page = await suite.open("/@me/upload");
    const uploads: PwRequest[] = [];
    page.on("request", (r) => r.url().endsWith("/uploads") && uploads.push(r));
    const input = page.locator('input[name="doc"]');
    const big = Buffer.alloc(1024 * 1024 + 1, 97);
    await input.setInputFiles({ name: "big.txt", mimeType: "text/plain", buffer: big });
    await page.getByText("must be at most 1 MB").waitFor();
    await input.setInputFiles({ name: "a.png", mimeType: "image/png", buffer: Buffer.from("x") });
    await page.getByText("must be one of: text/plain").waitFor();
    expect(uploads).toHaveLength(0);
    await input.setInputFiles({
      name: "notes.txt",
      mimeType: "text/plain",
      buffer: Buffer.from("hi"),
    });
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("heading", { name: "Thank you" }).waitFor();
    expect(uploads).toHaveLength(1);
    const url = (await suite.latest("upload"))?.payload.doc as string;
    expect(url).toContain("/api/uploads/");
    expect(await (await fetch(url)).text()).toBe("hi");
  });

  it("shuffles choices and select options with randomize_options, and still records the pick", async () => {
    const options = ["A1", "B2", "C3", "D4", "E5", "F6", "G7", "H8"];
    await suite.api("POST", "/api/forms", {
      body: {
        title: "Shuffled",
        slug: "shuffled",
        humanness: false,
        settings: { randomize_options: true },
        fields: [
          { id: "pick", type: "radio", label: "Pick", options },
          { id: "menu", type: "select", label: "Menu", options },
        ],
      },
    });
    const orders = { radio: new Set<string>(), select: new Set<string>() };
    for (let i = 0; i < 4; i++) {
      const page = await suite.open("/@me/shuffled");
      const radio = await page
        .locator('input[name="pick"]')
        .evaluateAll((els) => els.map((e) => (e as HTMLInputElement).value));
      const select = await page
        .locator("select option")
        .evaluateAll((els) => els.map((e) => (e as HTMLOptionElement).value));
      expect([...radio].sort()).toEqual(options);
      expect(select[0]).toBe(""); // the placeholder stays first
      expect(select.slice(1).sort()).toEqual(options);
      orders.radio.add(radio.join());
      orders.select.add(select.join());
      if (i === 3) {
        await page.getByRole("radio", { name: "E5" }).check();
        await page.getByLabel("Menu").selectOption("C3");
        await page.getByRole("button", { name: "Submit" }).click();
        await page.getByRole("heading", { name: "Thank you" }).waitFor();
      }
      await page.close();
    }
    // four identical shuffles of eight options in a row: about one chance in 10^18
    expect(orders.radio.size).toBeGreaterThan(1);
    expect(orders.select.size).toBeGreaterThan(1);
    expect((await suite.latest("shuffled"))?.payload).toEqual({ pick: "E5", menu: "C3" });
  });

  it("paints buttons in the brand color with readable text, and shows the logo", async () => {
    const branded = async (slug: string, primary_color: string) => {
      await suite.api("POST", "/api/forms", {
        body: {
          title: `Brand ${slug}`,
          slug,
          humanness: false,
          branding: { primary_color, logo: "/favicon.svg" },
          fields: [{ id: "ok", type: "yes_no", label: "OK?" }],
        },
      });
      const page = await suite.open(`/@me/${slug}`);
      const submit = page.getByRole("button", { name: "Submit" });
      const colors = await submit.evaluate((b) => {
        const style = getComputedStyle(b);
        return [style.backgroundColor, style.color];
      });
      expect(await page.locator(".fd-logo").getAttribute("src")).toBe("/favicon.svg");
      return colors;
    };
    // amber takes dark text, navy takes white
    expect(await branded("amber", "#f59e0b")).toEqual(["rgb(245, 158, 11)", "rgb(17, 17, 17)"]);
    expect(await branded("navy", "#1e3a8a")).toEqual(["rgb(30, 58, 138)", "rgb(255, 255, 255)"]);
  });

  it("runs without script errors", () => {
    // the lost answer above is a failed request on purpose
    expect(suite.errors.filter((e) => !e.includes("Failed to load resource"))).toEqual([]);
  });
});
