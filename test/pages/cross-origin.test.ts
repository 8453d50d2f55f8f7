import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPages } from "../../functions/node/build-pages.ts";
import { client } from "../helpers/api.ts";
import { launch, type SuiteBrowser } from "../helpers/browser.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// The production shape: static pages on one origin, the API on another.
const outDir = new URL("../../node_modules/.cache/formdown-cross-origin/", import.meta.url)
  .pathname;
let api: TestServer;
let statics: Server;
let pagesUrl = "";
let browser: SuiteBrowser;

beforeAll(async () => {
  api = await startTestServer();
  for (const name of ["contact"]) {
    const markdown = await readFile(
      new URL(`../fixtures/examples/${name}.md`, import.meta.url),
      "utf8",
    );
    await client(api.url, api.apiKey)("PUT", `/api/forms/${name}`, { body: { markdown } });
  }
  await buildPages({
    outDir,
    env: { FORMDOWN_BASE_URL: api.url },
  });
  const types: Record<string, string> = {
    ".html": "text/html",
    ".js": "text/javascript",
    ".css": "text/css",
    ".svg": "image/svg+xml",
  };
  statics = createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const file = join(outDir, "client", path, extname(path) ? "" : "index.html");
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((r) => statics.listen(0, "127.0.0.1", r));
  pagesUrl = `http://localhost:${(statics.address() as AddressInfo).port}`;
  browser = await launch();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  statics?.close();
  await api?.close();
});

describe("static pages on another origin than the API", () => {
  it("submits from the static page to the API origin (CORS, absolute API URL, CSP)", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    await page.goto(`${pagesUrl}/@me/contact/`);
    await page.getByLabel("Your name").fill("Grace Hopper");
    await page.getByLabel("Email address").fill("grace@example.com");
    await page.getByLabel("Message").fill("From a CDN");
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("heading", { name: "Thank you" }).waitFor({ timeout: 30_000 });
    const list = await client(api.url, api.apiKey)("GET", "/api/forms/contact/responses");
    expect(list.body.responses[0].payload).toMatchObject({
      name: "Grace Hopper",
      message: "From a CDN",
    });
    expect(
      errors.filter((e) => e.includes("Content Security Policy") || e.includes("CORS")),
    ).toEqual([]);
    await context.close();
  });
});
