import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
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
let forms = "";

// a password form: its static page must hold none of this (SPEC §19)
const SECRET = `---
title: Members only
slug: secret
humanness: false
access: { mode: password }
fields:
  - { id: handshake, type: text, label: What is the secret handshake?, required: true }
---
Only members read this introduction.
`;

beforeAll(async () => {
  api = await startTestServer();
  forms = await mkdtemp(join(tmpdir(), "formdown-cross-origin-"));
  // the copy of the contact example under a handler of its own: at forms/@me/contact.md it would
  // count as the bundled example, which an operator's build leaves out; the locked page fetches
  // its form from the API's page for the account's handler (me)
  await mkdir(join(forms, "@team"));
  await mkdir(join(forms, "@me"));
  await cp(
    new URL("../fixtures/examples/contact.md", import.meta.url).pathname,
    join(forms, "@team", "contact.md"),
  );
  await writeFile(join(forms, "@me", "secret.md"), SECRET);
  const owner = client(api.url, api.apiKey);
  for (const file of ["@team/contact.md", "@me/secret.md"]) {
    const markdown = await readFile(join(forms, file), "utf8");
    await owner("PUT", `/api/forms/${file.slice(file.indexOf("/") + 1, -3)}`, {
      body: { markdown },
    });
  }
  await owner("PUT", "/api/forms/secret/access", {
    body: { mode: "password", password: "open sesame" },
  });
  await buildPages({
    outDir,
    env: { FORMDOWN_BASE_URL: api.url, FORMDOWN_FORMS_DIR: forms },
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
  if (forms) await rm(forms, { recursive: true, force: true });
});

describe("static pages on another origin than the API", () => {
  it("submits from the static page to the API origin (CORS, absolute API URL, CSP)", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    await page.goto(`${pagesUrl}/@team/contact/`);
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

  it("keeps a password form's content off its static page; the password fetches it from the API", async () => {
    const html = await readFile(join(outDir, "client", "@me", "secret", "index.html"), "utf8");
    expect(html).toContain("Members only");
    expect(html).not.toContain("secret handshake");
    expect(html).not.toContain("Only members read");
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${pagesUrl}/@me/secret/`);
    await page.getByLabel("Password").fill("wrong guess");
    await page.getByRole("button", { name: "Next" }).click();
    // the password goes with an anti-bot token the page solves first (SPEC §23)
    await expect
      .poll(() => page.locator(".fd-status").textContent(), { timeout: 30_000 })
      .toMatch(/password|link/i);
    await page.getByLabel("Password").fill("open sesame");
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByLabel("What is the secret handshake?").fill("Two taps");
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("heading", { name: "Thank you" }).waitFor({ timeout: 30_000 });
    const list = await client(api.url, api.apiKey)("GET", "/api/forms/secret/responses");
    expect(list.body.responses.map((r: { payload: unknown }) => r.payload)).toEqual([
      { handshake: "Two taps" },
    ]);
    await context.close();
  });
});
