// Ninth review, part B: a partial save (SPEC §25) is anonymous, and its `page` went to the
// database as sent: any integer past a Postgres integer (`{"page": 99999999999}`) answered 500
// with a stack trace in the log, from anyone (SPEC §19: every malformed input is a 4xx). A page
// out of range is now not recorded, as a page that is not an integer never was.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe.each(DB_KINDS)("a partial's page (%s)", { timeout: 120_000 }, (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    const made = await client(s.url, s.apiKey)("POST", "/api/forms", {
      body: {
        title: "Long",
        slug: "long",
        humanness: false,
        settings: { partial: true },
        fields: [{ id: "note", type: "text" }],
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
  });
  afterAll(() => s?.close());

  const save = async (page: unknown) => {
    const res = await fetch(`${s.url}/api/forms/long/partial`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ fields: { note: "so far" }, page }),
    });
    return { status: res.status, body: await res.json() };
  };

  it.each([99_999_999_999, -99_999_999_999, 1e300, -1, 2_147_483_648])(
    "saves the answers of page %d, without the page",
    async (page) => {
      const saved = await save(page);
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      const read = await fetch(`${s.url}/api/forms/long/partial/${saved.body.resume}`);
      expect(await read.json()).toEqual({ fields: { note: "so far" }, page: null });
    },
  );

  it("keeps a page within range", async () => {
    const saved = await save(2_147_483_647);
    const read = await fetch(`${s.url}/api/forms/long/partial/${saved.body.resume}`);
    expect((await read.json()).page).toBe(2_147_483_647);
  });
});
