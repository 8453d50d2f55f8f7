// Embedding (SPEC §13): /embed.js on another site turns a div into a frame of the form that
// follows its height, submits, and moves the host page on a redirect; frame-ancestors keeps the
// form out of sites its author did not list.
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PageSuite, startPageSuite } from "../helpers/browser.ts";

let suite: PageSuite;
let host: Server;
let hostUrl = "";
let hostHtml = "";

beforeAll(async () => {
  suite = await startPageSuite();
  // the author's own site, on another origin (localhost vs 127.0.0.1, another port)
  host = createServer((req, res) => {
    if (req.url?.startsWith("/done")) return res.end("<h1>Back on the host</h1>");
    res.writeHead(200, { "content-type": "text/html" }).end(hostHtml);
  });
  await new Promise<void>((r) => host.listen(0, "127.0.0.1", r));
  hostUrl = `http://localhost:${(host.address() as AddressInfo).port}`;
}, 180_000);
afterAll(async () => {
  host?.close();
  await suite?.close();
});

const page = (slug: string) =>
  `<!doctype html><html lang="en"><head><title>Host</title></head><body><h1>My site</h1>
<div data-formdown="${suite.server.url}/@me/${slug}"></div>
<script src="${suite.server.url}/embed.js"></script></body></html>`;

describe("embedding a form in another site", () => {
  it("serves a dependency-free embed.js of at most 2 KB gzip", async () => {
    const res = await fetch(`${suite.server.url}/embed.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("javascript");
    const text = await res.text();
    expect(text).toBe(readFileSync(new URL("../../public/embed.js", import.meta.url), "utf8"));
    expect(text).not.toMatch(/\bimport\b|\brequire\(/);
    expect(gzipSync(text).length).toBeLessThanOrEqual(2048);
  });

  it("frames the form without chrome, follows its height, submits, and moves the host on a redirect", async () => {
    await suite.api("POST", "/api/forms", {
      body: {
        title: "Embedded",
        slug: "embedded",
        humanness: false,
        ending: { redirect_url: `${hostUrl}/done?by={field:name}` },
        fields: [
          { id: "name", type: "text", label: "Name", required: true },
          { id: "more", type: "yes_no", label: "Tell us more?" },
          {
            id: "story",
            type: "textarea",
            label: "Your story",
            show_if: { field: "more", op: "eq", value: "yes" },
          },
        ],
      },
    });
    hostHtml = page("embedded");
    const tab = await suite.context.newPage();
    await tab.goto(hostUrl);
    const iframe = tab.locator("[data-formdown] iframe");
    const frame = tab.frameLocator("[data-formdown] iframe");
    await frame.getByLabel("Name").waitFor();
    const height = () => iframe.evaluate((el) => el.getBoundingClientRect().height);
    await expect.poll(height).not.toBe(480);
    const before = await height();
    // the frame's page is the form alone, on a transparent background
    const inner = tab.frames().find((f) => f.url().includes("/@me/embedded"))!;
    expect(new URL(inner.url()).searchParams.get("embed")).toBe("1");
    expect(await inner.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(
      "rgba(0, 0, 0, 0)",
    );
    expect(await inner.locator(".fd-footer").isVisible()).toBe(false);
    // content grows (show_if reveals a field): so does the frame
    await frame.getByRole("radio", { name: "Yes" }).check();
    await expect.poll(height).toBeGreaterThan(before + 40);
    await frame.getByLabel("Name").fill("Zoë");
    await frame.getByLabel("Your story").fill("Embedded and answered.");
    await frame.getByRole("button", { name: "Submit" }).click();
    // the frame moves the page and embed.js does too (a browser may refuse the frame's move), so
    // the first navigation may be aborted by the second: where the page ends is what counts
    await expect
      .poll(() => tab.url(), { timeout: 15_000 })
      .toMatch(new RegExp(`^${hostUrl}/done\\?`));
    await tab.waitForLoadState();
    expect(new URL(tab.url()).searchParams.get("by")).toBe("Zoë");
    expect((await suite.latest("embedded"))?.payload).toEqual({
      name: "Zoë",
      more: "yes",
      story: "Embedded and answered.",
    });
  });

  it("stays light (and so transparent) on a light site, even for a respondent who prefers dark", async () => {
    hostHtml = page("embedded");
    const context = await suite.context.browser()!.newContext({ colorScheme: "dark" });
    const tab = await context.newPage();
    await tab.goto(hostUrl);
    await tab.frameLocator("[data-formdown] iframe").getByLabel("Name").waitFor();
    const inner = tab.frames().find((f) => f.url().includes("/@me/embedded"))!;
    expect(new URL(inner.url()).searchParams.get("scheme")).toBe("light");
    expect(
      await inner.evaluate(() => [
        getComputedStyle(document.documentElement).colorScheme,
        getComputedStyle(document.body).backgroundColor,
      ]),
    ).toEqual(["light", "rgba(0, 0, 0, 0)"]);
    // the same page on its own follows the respondent's preference
    const alone = await context.newPage();
    await alone.goto(`${suite.server.url}/@me/embedded`);
    expect(await alone.evaluate(() => getComputedStyle(document.documentElement).colorScheme)).toBe(
      "dark",
    );
    await context.close();
  });

  it("refuses to be framed by a site not in embed_origins (frame-ancestors)", async () => {
    await suite.api("POST", "/api/forms", {
      body: {
        title: "Private",
        slug: "private",
        settings: { embed_origins: ["https://partner.example"] },
        fields: [{ id: "name", type: "text", label: "Name" }],
      },
    });
    const res = await fetch(`${suite.server.url}/@me/private`);
    expect(res.headers.get("content-security-policy")).toBe(
      "frame-ancestors https://partner.example",
    );
    const open = await fetch(`${suite.server.url}/@me/embedded`);
    expect(open.headers.get("content-security-policy")).toBe("frame-ancestors *");
    hostHtml = page("private");
    const tab = await suite.context.newPage();
    const refused: string[] = [];
    tab.on("console", (m) => refused.push(m.text()));
    await tab.goto(hostUrl);
    await expect
      .poll(() => refused.some((t) => t.includes("frame-ancestors")), { timeout: 10_000 })
      .toBe(true);
    const framed = tab.frames().filter((f) => f !== tab.mainFrame());
    for (const f of framed)
      expect(
        await f
          .locator("formdown-form")
          .count()
          .catch(() => 0),
      ).toBe(0);
    await tab.close();
  });
});
