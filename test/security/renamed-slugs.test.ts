// SPEC §23 (issue 41 item 9): after a rename the old slug stays reserved to its account while the
// redirect stands, so another account cannot take it and receive the old page's answers.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe.each(DB_KINDS)("a renamed form's old slug (%s)", (kind) => {
  let s: TestServer;
  let owner: ReturnType<typeof client>;
  let other: ReturnType<typeof client>;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    owner = client(s.url, s.apiKey);
    other = client(s.url, await s.otherKey());
  });
  afterAll(async () => {
    await s?.close();
  });

  const form = (slug: string) => ({
    title: slug,
    slug,
    humanness: false,
    fields: [{ id: "x", type: "text", label: "X" }],
  });

  it("is kept for its account while the redirect stands", async () => {
    expect((await owner("POST", "/api/forms", { body: form("rs-old") })).status).toBe(201);
    const moved = await owner("POST", "/api/forms/rs-old/rename", { body: { slug: "rs-new" } });
    expect(moved.status).toBe(200);
    // another account can neither create a form there nor move one there
    const taken = await other("POST", "/api/forms", { body: form("rs-old") });
    expect([taken.status, taken.body.code]).toEqual([409, "conflict"]);
    expect((await other("PUT", "/api/forms/rs-old", { body: form("rs-old") })).status).toBe(409);
    expect((await other("POST", "/api/forms", { body: form("rs-theirs") })).status).toBe(201);
    const into = await other("POST", "/api/forms/rs-theirs/rename", { body: { slug: "rs-old" } });
    expect([into.status, into.body.code]).toEqual([409, "conflict"]);
    // the old page still leads to the owner's form, and its submits reach no one else
    const page = await fetch(`${s.url}/@${s.handler}/rs-old`, { redirect: "manual" });
    expect(page.status).toBe(301);
    expect(page.headers.get("location")).toContain("/rs-new");
    // the owner may take it back
    expect((await owner("POST", "/api/forms", { body: form("rs-old") })).status).toBe(201);
  });
});
