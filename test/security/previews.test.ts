// SPEC §23 "Previews are drafts' only": a preview token stops working when the form is published,
// can be rotated (`POST …/preview/rotate`), and a preview submit obeys the form's access mode;
// "Drafts take uploads only with the preview token or the key".
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { solveAltcha } from "../helpers/altcha.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe.each(DB_KINDS)("previews (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
  });
  afterAll(async () => {
    await s?.close();
  });

  /** A draft (default access) and its preview token. */
  const draft = async (
    slug: string,
    fields: object[] = [{ id: "x", type: "text", label: "Draft question" }],
  ) => {
    const body = { title: slug, slug, status: "draft", fields };
    const made = await api("POST", "/api/forms", { body });
    expect(made.status).toBe(201);
    return tokenOf(made.body.preview_url);
  };
  const tokenOf = (url: string) => url.split("/").pop()!;
  const post = (slug: string, body: object) =>
    api("POST", `/api/forms/${slug}/submit`, { key: null, body });
  const page = (token: string) =>
    fetch(`${s.url}/preview/${token}`).then(async (res) => ({
      status: res.status,
      text: await res.text(),
    }));

  it("stops a preview link working once its form is published", async () => {
    const token = await draft("pv-pub");
    expect((await post("pv-pub", { preview: token, fields: { x: "1" } })).status).toBe(201);
    expect((await page(token)).text).toContain("Draft question");
    const published = await api("POST", "/api/forms/pv-pub/publish");
    expect(published.status).toBe(200);
    expect(published.body.preview_url).toBeUndefined();
    expect((await api("GET", "/api/forms/pv-pub")).body.preview_url).toBeUndefined();
    const late = await post("pv-pub", { preview: token, fields: { x: "1" } });
    expect([late.status, late.body.code]).toEqual([403, "access_denied"]);
    expect((await page(token)).status).toBe(404);
    expect((await api("GET", `/api/preview/${token}`, { key: null })).status).toBe(404);
  });

  it("rotates a draft's preview link: the old one stops working, the new one works", async () => {
    const old = await draft("pv-rot");
    const rotated = await api("POST", "/api/forms/pv-rot/preview/rotate");
    expect(rotated.status).toBe(200);
    const fresh = tokenOf(rotated.body.preview_url);
    expect(fresh).not.toBe(old);
    expect((await api("GET", "/api/forms/pv-rot")).body.preview_url).toBe(rotated.body.preview_url);
    expect((await post("pv-rot", { preview: old, fields: { x: "1" } })).status).toBe(403);
    expect((await page(old)).status).toBe(404);
    expect((await post("pv-rot", { preview: fresh, fields: { x: "1" } })).status).toBe(201);
    expect((await page(fresh)).text).toContain("Draft question");
    // only its owner rotates it, and only while it is a draft
    const theirs = await api("POST", "/api/forms/pv-rot/preview/rotate", {
      key: await s.otherKey(),
    });
    expect(theirs.status).toBe(403);
    expect((await api("POST", "/api/forms/pv-rot/publish")).status).toBe(200);
    const live = await api("POST", "/api/forms/pv-rot/preview/rotate");
    expect([live.status, live.body.code]).toEqual([409, "conflict"]);
  });

  it("asks a preview submit for the form's password, and refuses it on a closed form", async () => {
    const token = await draft("pv-pw");
    const set = await api("PUT", "/api/forms/pv-pw/access", {
      body: { mode: "password", password: "open sesame" },
    });
    expect(set.status).toBe(200);
    const bare = await post("pv-pw", { preview: token, fields: { x: "1" } });
    expect([bare.status, bare.body.code]).toEqual([422, "captcha_failed"]);
    const wrong = await post("pv-pw", {
      preview: token,
      fields: { x: "1" },
      access: "guess",
      turnstile_token: await solveAltcha(s.url),
    });
    expect([wrong.status, wrong.body.code]).toEqual([403, "access_denied"]);
    // its page is locked as the live one would be
    expect((await page(token)).text).not.toContain("Draft question");
    const right = await post("pv-pw", {
      preview: token,
      fields: { x: "1" },
      access: "open sesame",
      turnstile_token: await solveAltcha(s.url),
    });
    expect(right.status).toBe(201);
    expect(right.body.test).toBe(true);

    const shut = await draft("pv-shut");
    await api("PUT", "/api/forms/pv-shut/access", { body: { mode: "closed" } });
    const closed = await post("pv-shut", { preview: shut, fields: { x: "1" } });
    expect([closed.status, closed.body.code]).toEqual([403, "form_closed"]);
  });

  it("takes a draft's uploads only with its preview token or its owner's key", async () => {
    const token = await draft("pv-up", [{ id: "cv", type: "file", label: "CV", max_mb: 1 }]);
    const upload = async (parts: Record<string, string>, key?: string) => {
      const body = new FormData();
      for (const [k, v] of Object.entries({ field: "cv", ...parts })) body.set(k, v);
      body.set("file", new File(["%PDF hi"], "cv.pdf"));
      const res = await fetch(`${s.url}/api/forms/pv-up/uploads`, {
        method: "POST",
        body,
        ...(key ? { headers: { authorization: `Bearer ${key}` } } : {}),
      });
      return { status: res.status, body: (await res.json()) as { code?: string; url?: string } };
    };
    const anonymous = await upload({});
    expect([anonymous.status, anonymous.body.code]).toEqual([403, "form_closed"]);
    expect((await upload({ preview: `${token}x` })).status).toBe(403);
    expect((await upload({ preview: token })).status).toBe(201);
    expect((await upload({}, s.apiKey)).status).toBe(201);
    expect((await upload({}, await s.otherKey())).status).toBe(403);
    const [stored] = await s.ctx.db.query<{ n: number }>(
      "select count(*)::int as n from uploads u join forms f on f.id = u.form_id where f.slug = 'pv-up'",
    );
    expect(stored!.n).toBe(2);
  });
});
