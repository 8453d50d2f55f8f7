// Ninth review, part B: `expires_at` of new invites was any instant JavaScript reads, and the
// database holds years 1 to 9999: `{"count": 1, "expires_at": "10000-01-01"}` (or
// `9999-12-31T23:59:59-01:00`) answered 500 (SPEC §19: bad input is a 400 naming it).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe.each(DB_KINDS)("an invite's expiry (%s)", { timeout: 120_000 }, (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
    const made = await api("POST", "/api/forms", {
      body: { title: "I", slug: "inv", humanness: false, fields: [{ id: "t", type: "text" }] },
    });
    expect(made.status).toBe(201);
  });
  afterAll(() => s?.close());

  it.each(["10000-01-01", "+275760-09-13T00:00:00Z", "9999-12-31T23:59:59-01:00"])(
    "refuses %s as 400 naming expires_at",
    async (at) => {
      const res = await api("POST", "/api/forms/inv/invites", {
        body: { count: 1, expires_at: at },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.details).toEqual([{ field: "expires_at", message: expect.any(String) }]);
    },
  );

  it("takes the last day the database holds", async () => {
    const res = await api("POST", "/api/forms/inv/invites", {
      body: { count: 1, expires_at: "9999-12-31T00:00:00Z" },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });
});
