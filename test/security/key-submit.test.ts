// Second review (docs/security-review.md): a submit or upload sent with the owner's key skips the
// anti-bot check and the password (SPEC §16 test answers; `test: false` stores a real response),
// but the key's scope and forms were not asked: a `read` key stored responses into a password
// form, and a key limited to one form answered another. Answering with a key needs `write` and
// the form, as try_form does over MCP (SPEC §23).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe.each(DB_KINDS)("answering with a key (%s)", (kind) => {
  let s: TestServer;
  const keys: Record<string, string> = {};
  const stored = async (slug: string) =>
    (
      await s.ctx.db.query<{ n: number }>(
        "select count(*)::int as n from responses r join forms f on f.id = r.form_id where f.slug = $1",
        [slug],
      )
    )[0]!.n;

  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    const api = client(s.url, s.apiKey);
    for (const slug of ["alpha", "beta"]) {
      const made = await api("POST", "/api/forms", {
        body: {
          title: slug,
          slug,
          humanness: true,
          fields: [
            { id: "note", type: "text" },
            { id: "cv", type: "file", accept: ["application/pdf"], max_mb: 1 },
          ],
        },
      });
      expect(made.status).toBe(201);
    }
    await api("PUT", "/api/forms/beta/access", { body: { mode: "password", password: "s3cret!" } });
    for (const [name, body] of [
      ["read", { name: "reader", scopes: ["read"] }],
      ["write", { name: "writer", scopes: ["write"] }],
      ["alpha", { name: "alpha", scopes: ["admin"], forms: ["alpha"] }],
    ] as const) {
      const made = await api("POST", "/api/keys", { body });
      expect(made.status).toBe(201);
      keys[name] = made.body.api_key;
    }
  });
  afterAll(() => s?.close());

  const submit = (slug: string, key: string, test?: boolean) =>
    client(s.url, key)("POST", `/api/forms/${slug}/submit`, {
      body: { fields: { note: "by key" }, ...(test === undefined ? {} : { test }) },
    });
  const upload = (slug: string, key: string) => {
    const form = new FormData();
    form.set("field", "cv");
    form.set("file", new File(["%PDF-1.4 x"], "cv.pdf", { type: "application/pdf" }));
    return fetch(`${s.url}/api/forms/${slug}/uploads`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
  };

  it("refuses a read key's test or real answer, and its upload", async () => {
    for (const test of [undefined, false]) {
      const res = await submit("beta", keys.read!, test);
      expect([res.status, res.body.code], JSON.stringify(res.body)).toEqual([403, "forbidden"]);
      expect(res.body.error).toContain('"write" scope');
    }
    expect((await upload("beta", keys.read!)).status).toBe(403);
    expect(await stored("beta")).toBe(0);
  });

  it("refuses a key limited to other forms", async () => {
    const res = await submit("beta", keys.alpha!, false);
    expect([res.status, res.body.code]).toEqual([403, "forbidden"]);
    expect((await upload("beta", keys.alpha!)).status).toBe(403);
    expect(await stored("beta")).toBe(0);
  });

  it("takes a write key's answer and a limited key's on its own form", async () => {
    expect((await submit("beta", keys.write!)).status).toBe(201);
    expect((await submit("alpha", keys.alpha!, false)).status).toBe(201);
    expect((await upload("alpha", keys.alpha!)).status).toBe(201);
  });
});
