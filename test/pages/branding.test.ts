// settings.branding: false removes "Made with Formdown" from the page (SPEC §26), the open page
// and the locked one alike; without it, the line stays.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe("the page's branding line", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
    const api = client(s.url, s.apiKey);
    const form = (slug: string, settings: object) => ({
      title: "Hello",
      slug,
      humanness: false,
      settings,
      fields: [{ id: "name", type: "text", label: "Name" }],
    });
    for (const [slug, settings] of [
      ["branded", {}],
      ["plain", { branding: false }],
      ["kept", { branding: true }],
    ] as const)
      expect((await api("POST", "/api/forms", { body: form(slug, settings) })).status).toBe(201);
    const locked = await api("PUT", "/api/forms/plain/access", {
      body: { mode: "password", password: "secret-word" },
    });
    expect(locked.status).toBe(200);
    expect(
      (await api("POST", "/api/forms", { body: form("open-plain", { branding: false }) })).status,
    ).toBe(201);
  });
  afterAll(async () => s?.close());

  const page = async (slug: string) => {
    const res = await fetch(`${s.url}/@me/${slug}`);
    expect(res.status).toBe(200);
    return res.text();
  };

  it("shows Made with Formdown unless settings.branding is false", async () => {
    expect(await page("branded")).toContain("Made with Formdown");
    expect(await page("kept")).toContain("Made with Formdown");
    const open = await page("open-plain");
    expect(open).toContain('name="name"');
    expect(open).not.toContain("Made with Formdown");
    // the locked page of a password form, before it is unlocked
    const locked = await page("plain");
    expect(locked).not.toContain('name="name"');
    expect(locked).not.toContain("Made with Formdown");
  });

  it("refuses a branding that is not true or false, in plain words", async () => {
    const res = await client(s.url, s.apiKey)("POST", "/api/forms", {
      body: { title: "X", slug: "x", settings: { branding: "no" }, fields: [] },
    });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain("settings.branding");
  });
});
