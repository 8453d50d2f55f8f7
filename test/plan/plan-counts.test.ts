// The plan counts the answers a change touches among real responses only, and names the version
// the change makes (issue 47 item 11: a rename said 4 answers for 3 real responses and a test
// answer, and "1 change to version 4" when the new version was 5).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const definition = {
  title: "Retro",
  slug: "retro",
  humanness: false,
  fields: [
    { id: "went_well", type: "text" },
    { id: "mood", type: "radio", options: ["Good", "Bad"] },
  ],
};

describe.each(DB_KINDS)("a plan's counts and version (%s)", (db) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    s = await startTestServer({ db });
    api = client(s.url, s.apiKey);
    expect((await api("POST", "/api/forms", { body: definition })).status).toBe(201);
    for (const mood of ["Good", "Good", "Bad"]) {
      const fields = { went_well: `it ${mood}`, mood };
      const res = await api("POST", "/api/forms/retro/submit", { key: null, body: { fields } });
      expect(res.status).toBe(201);
    }
    // the owner's test answer: stored, left out of every count
    const tried = await api("POST", "/api/forms/retro/submit", {
      body: { fields: { went_well: "a test", mood: "Bad" } },
    });
    expect(tried.body.test).toBe(true);
  });
  afterAll(() => s?.close());

  it("a rename and a removed option count the real responses, not the test answer", async () => {
    const next = {
      ...definition,
      fields: [
        { id: "highlight", type: "text", formerly: ["went_well"] },
        { id: "mood", type: "radio", options: ["Good"] },
      ],
    };
    const plan = await api("POST", "/api/forms/retro/plan", { body: next });
    expect(plan.status).toBe(200);
    const counts = Object.fromEntries(
      plan.body.changes.map((c: { kind: string; answers_affected: number }) => [
        c.kind,
        c.answers_affected,
      ]),
    );
    expect(counts).toMatchObject({ field_renamed: 3, option_removed: 1 });
  });

  it("names the version the change makes, from the live one", async () => {
    for (const title of ["Retro 2", "Retro 3", "Retro 4"]) {
      const res = await api("PATCH", "/api/forms/retro", { body: { title } });
      expect(res.status).toBe(200);
    }
    const plan = await api("POST", "/api/forms/retro/plan", { body: { title: "Retro 5" } });
    expect(plan.body.from_version).toBe(4);
    expect(plan.body.summary).toBe("1 change: version 4 → 5.");
  });
});
