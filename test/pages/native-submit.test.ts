// Fourth review, 2026-11-28: a page whose script does not run (scripting off, a blocker such as
// NoScript, or the entry not yet arrived on a slow line) submits its form natively. Both forms
// had no method, so that was a GET to the page itself: `/@me/locked?_access=<password>` and
// `/@me/plain?email=…&note=…` in the address bar, history and every access log. Both forms now
// say method="post": a native submit carries nothing in the address.
import type { Request } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launch, type PageSuite, type SuiteBrowser, startPageSuite } from "../helpers/browser.ts";

let suite: PageSuite;
let browser: SuiteBrowser;

beforeAll(async () => {
  suite = await startPageSuite();
  browser = await launch();
  for (const slug of ["plain", "locked"]) {
    const made = await suite.api("POST", "/api/forms", {
      body: {
        title: `Form ${slug}`,
        slug,
        humanness: false,
        fields: [
          { id: "email", type: "email", label: "Email" },
          { id: "note", type: "text", label: "Note" },
        ],
      },
    });
    expect(made.status).toBe(201);
  }
  const set = await suite.api("PUT", "/api/forms/locked/access", {
    body: { mode: "password", password: "hunter2-secret" },
  });
  expect(set.status).toBe(200);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await suite?.close();
});

/** A page without script, and the documents it asked for after the first. */
async function scriptless(path: string) {
  const page = await (await browser.newContext({ javaScriptEnabled: false })).newPage();
  const asked: Request[] = [];
  await page.goto(`${suite.server.url}${path}`);
  page.on("request", (r) => r.isNavigationRequest() && asked.push(r));
  return { page, asked };
}

describe("a form submitted without its script", () => {
  it("never puts a password form's password in the address", async () => {
    const { page, asked } = await scriptless("/@me/locked");
    await page.getByLabel("Password").fill("hunter2-secret");
    await page.getByLabel("Password").press("Enter");
    await expect.poll(() => asked.length).toBe(1);
    expect(asked[0]!.method()).toBe("POST");
    expect(asked[0]!.url()).toBe(`${suite.server.url}/@me/locked`);
    expect(page.url()).not.toContain("hunter2");
  });

  it("never puts the answers in the address", async () => {
    const { page, asked } = await scriptless("/@me/plain");
    await page.getByLabel("Email").fill("ann@example.org");
    await page.getByLabel("Note").fill("private note");
    await page.getByRole("button", { name: "Submit" }).click();
    await expect.poll(() => asked.length).toBe(1);
    expect(asked[0]!.method()).toBe("POST");
    expect(asked[0]!.url()).toBe(`${suite.server.url}/@me/plain`);
    expect(page.url()).not.toMatch(/ann|private/);
  });
});
