// SPEC §16 "Pages and API out of step", in a real browser: a page states the version it was
// built from and sends it; a deploy that adds a required field does not break the pages still
// open (the grace), and past the grace the page says the form was updated and to reload — the
// answers come back after the reload.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PageSuite, startPageSuite } from "../helpers/browser.ts";

let suite: PageSuite;

const form = (slug: string, extra: unknown[] = []) => ({
  title: "Out of step",
  slug,
  humanness: false,
  fields: [{ id: "name", type: "text", label: "Your name" }, ...extra],
});
const company = { id: "company", type: "text", label: "Company", required: true };

beforeAll(async () => {
  suite = await startPageSuite();
  for (const slug of ["grace", "stale"])
    expect((await suite.api("POST", "/api/forms", { body: form(slug) })).status).toBe(201);
}, 600_000);

afterAll(async () => {
  await suite?.close();
});

describe("a page built before a deploy", () => {
  it("states its version and submits within the grace after a required field was added", async () => {
    const page = await suite.open("/@me/grace");
    const def = JSON.parse((await page.locator("#fd-def").textContent()) ?? "{}");
    expect(def.version).toBe(1);
    await page.getByLabel("Your name").fill("Ada");
    const patch = await suite.api("PATCH", "/api/forms/grace", {
      body: { fields: form("grace", [company]).fields },
    });
    expect(patch.status).toBe(200);
    const sent = page.waitForRequest((r) => r.url().endsWith("/submit"));
    await page.locator("[data-submit]").click();
    expect((await sent).postDataJSON()).toMatchObject({ fields: { name: "Ada" }, version: 1 });
    await page.locator(".fd-done").waitFor({ state: "visible", timeout: 30_000 });
    const latest = await suite.api("GET", "/api/forms/grace/responses?limit=1");
    expect(latest.body.responses[0]).toMatchObject({ version: 1, payload: { name: "Ada" } });
  });

  it("past the grace, says the form was updated and keeps the answers through a reload", async () => {
    const page = await suite.open("/@me/stale");
    await page.getByLabel("Your name").fill("Grace");
    expect(
      (
        await suite.api("PATCH", "/api/forms/stale", {
          body: { fields: form("stale", [company]).fields },
        })
      ).status,
    ).toBe(200);
    // version 1 stopped being live two days ago: beyond the default grace of 24 h
    await suite.server.ctx.db.query(
      "update form_versions set retired_at = now() - interval '2 days' where form_id = (select id from forms where slug = 'stale') and version = 1",
    );
    await page.locator("[data-submit]").click();
    const status = page.locator(".fd-status");
    await expect
      .poll(() => status.textContent(), { timeout: 30_000 })
      .toContain("This form was updated while you were answering. Reload the page");
    expect(await status.textContent()).not.toContain("highlighted");
    await page.reload();
    await expect.poll(() => page.getByLabel("Your name").inputValue()).toBe("Grace");
    await expect.poll(() => page.getByLabel("Company").isVisible()).toBe(true);
    expect((await suite.api("GET", "/api/forms/stale/responses")).body.total).toBe(0);
    expect(suite.errors.filter((e) => !e.includes("409"))).toEqual([]);
  });
});
