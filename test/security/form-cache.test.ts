// Ninth review (2026-11-28, REVIEW-9A): the submit path keeps each form for two seconds in the
// form cache, under the path's slug and the `?built=` a static page sends, any text. An entry
// past its two seconds left only when the same key was asked again, so every new `built` kept
// another copy of the form until 5,000 were held: 3,000 anonymous submits to a 230 KB form
// (`POST /api/forms/big/submit?built=<n>`, no key) held 700 MB of heap for good (5,000: 1.2 GB,
// more with translations). Entries past their time now go when another is added.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer, testFetch } from "../helpers/server.ts";

describe.each(DB_KINDS)("the form cache holds two seconds of forms (%s)", (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    const made = await client(s.url, s.apiKey)("POST", "/api/forms", {
      body: {
        title: "Big",
        slug: "big",
        humanness: false,
        body: "Words ".repeat(2000),
        fields: [{ id: "a", type: "text", label: "A" }],
      },
    });
    expect(made.status, JSON.stringify(made.body).slice(0, 300)).toBe(201);
  });
  afterAll(() => s?.close());

  const submit = (built: string) =>
    testFetch(`${s.url}/api/forms/big/submit?built=${built}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ fields: { a: "x" } }),
    });

  it("does not keep a copy of the form for every page build a stranger names", async () => {
    for (let i = 0; i < 200; i += 20) {
      const answers = await Promise.all(Array.from({ length: 20 }, (_, j) => submit(`b${i + j}`)));
      expect(answers.map((r) => r.status)).toEqual(Array(20).fill(201));
    }
    const held = s.ctx.formCache.size();
    expect(held).toBeGreaterThan(0);
    // the cache's two seconds pass; the next submit's entry pushes the stale ones out
    await new Promise((r) => setTimeout(r, 2100));
    expect((await submit("last")).status).toBe(201);
    expect(s.ctx.formCache.size()).toBe(1);
  });
});
