// The server side of SPEC §13: what the page sends (seconds, progress beacons) is checked and
// stored; a quiz's submit names its ending and carries per-question feedback; frame-ancestors.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const quiz = {
  title: "Quiz",
  slug: "q",
  type: "quiz",
  humanness: false,
  quiz: {
    pass_percent: 50,
    pass_ending: { title: "Well done {field:name}" },
    fail_ending: { title: "Sorry {field:name}" },
  },
  fields: [
    { id: "name", type: "text", label: "Name" },
    { id: "a", type: "yes_no", label: "A?", answer: "yes", explanation: "A is true." },
    { id: "b", type: "radio", label: "B?", options: ["x", "y"], answer: "x" },
    { id: "note", type: "statement", label: "Thanks" },
  ],
};

describe.each(DB_KINDS)("respondent data on the server (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  const seconds = async (id: string) =>
    (
      await s.ctx.db.query<{ seconds: number | null }>(
        "select seconds from responses where id = $1",
        [id],
      )
    )[0]!.seconds;

  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
    expect((await api("POST", "/api/forms", { body: quiz })).status).toBe(201);
  });
  afterAll(() => s?.close());

  it("names the pass or fail ending and gives per-question feedback without the answer key", async () => {
    const pass = await api("POST", "/api/forms/q/submit", {
      body: { fields: { name: "Ada", a: "yes", b: "y" }, seconds: 42.4 },
    });
    expect(pass.status).toBe(201);
    expect(pass.body.ending).toBe("pass");
    expect(pass.body.feedback).toEqual([
      { field: "a", correct: true, explanation: "A is true." },
      { field: "b", correct: false },
    ]);
    expect(await seconds(pass.body.response_id)).toBe(42);
    const fail = await api("POST", "/api/forms/q/submit", {
      body: { fields: { a: "no" }, seconds: "soon" },
      headers: { "idempotency-key": "fail-1" },
    });
    expect(fail.body.ending).toBe("fail");
    expect(fail.body.score).toMatchObject({ passed: false, points: 0 });
    expect(await seconds(fail.body.response_id)).toBeNull();
    // a retried submit answers the same, feedback and ending included
    const again = await api("POST", "/api/forms/q/submit", {
      body: { fields: { a: "no" } },
      headers: { "idempotency-key": "fail-1" },
    });
    expect(again.body).toEqual(fail.body);
  });

  it("stores no seconds that cannot be a respondent's", async () => {
    for (const bad of [-1, 1e12, Number.NaN]) {
      const r = await api("POST", "/api/forms/q/submit", {
        raw: `{"fields": {"a": "yes"}, "seconds": ${Number.isNaN(bad) ? "null" : bad}}`,
      });
      expect(r.status).toBe(201);
      expect(await seconds(r.body.response_id)).toBeNull();
    }
  });

  it("counts progress beacons per field and refuses ones that name no question", async () => {
    const beacon = (body: unknown) => api("POST", "/api/forms/q/events", { body });
    for (const field of ["name", "a", "name", "a", "b", "name"])
      expect((await beacon({ type: "progress", field })).status).toBe(204);
    const rows = await s.ctx.db.query<{ field: string; reached: number }>(
      "select p.field, sum(p.reached)::int as reached from form_progress p join forms f on f.id = p.form_id where f.slug = 'q' group by p.field order by p.field",
    );
    expect(rows).toEqual([
      { field: "a", reached: 2 },
      { field: "b", reached: 1 },
      { field: "name", reached: 3 },
    ]);
    for (const [body, field] of [
      [{ type: "progress" }, "field"],
      [{ type: "progress", field: "nope" }, "field"],
      [{ type: "progress", field: "note" }, "field"],
      [{ type: "progress", field: 3 }, "field"],
      [{ type: "answer", field: "a" }, "type"],
    ] as const) {
      const r = await beacon(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.code).toBe("validation_failed");
      expect(r.body.details[0].field).toBe(field);
    }
    expect((await beacon({ type: "progress", field: "a" })).status).toBe(204);
    expect(
      (await api("POST", "/api/forms/missing/events", { body: { type: "view" } })).status,
    ).toBe(404);
  });
});
