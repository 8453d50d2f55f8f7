// Sixth review (2026-11-28, docs/security-review.md): a form's invites had no total, and their
// list answers every one: 200 requests of `{"count": 1000}` (any account's `write` key on its own
// form, a quarter of a minute) made `GET /api/forms/{slug}/invites` a 33 MB answer that held the
// event loop 4 s and the server's memory at 660 MB, each listing (a million: the server's end).
// A form now holds at most 10,000 invites, counted in the statement that adds them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_FORM_INVITES } from "../../functions/services/invites.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe.each(DB_KINDS)("a form's invites are bounded (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
    const made = await api("POST", "/api/forms", {
      body: { title: "Invites", slug: "many", fields: [{ id: "a", type: "text", label: "A" }] },
    });
    expect(made.status, JSON.stringify(made.body).slice(0, 300)).toBe(201);
  });
  afterAll(() => s?.close());

  it("refuses the invite past the bound, and lists at most that many", async () => {
    expect(MAX_FORM_INVITES).toBe(10_000);
    for (let i = 0; i < MAX_FORM_INVITES / 1000; i++) {
      const res = await api("POST", "/api/forms/many/invites", { body: { count: 1000 } });
      expect(res.status).toBe(201);
    }
    const over = await api("POST", "/api/forms/many/invites", {
      body: { count: 1, emails: ["x@example.org"] },
    });
    expect(over.status).toBe(409);
    expect(over.body.code).toBe("conflict");
    const list = await api("GET", "/api/forms/many/invites");
    expect(list.status).toBe(200);
    expect(list.body.invites).toHaveLength(MAX_FORM_INVITES);
    // the refused address got no email either
    const outbox = await api("GET", "/api/outbox?limit=100");
    expect(JSON.stringify(outbox.body)).not.toContain("x@example.org");
  });
});
