// A scalar field's answers are tallied by their text, and a list or an object stored under it
// (an earlier version's answer, or one written around the API) is not counted among its values,
// while an option whose label starts with [ still is (functions/reports/report-tallies.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reportTallies } from "../../functions/reports/report-tallies.ts";
import { formSequence } from "../../functions/services/submit-sql.ts";
import { formSchema } from "../../src/core/schema.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const form = {
  title: "Plans",
  slug: "plans",
  humanness: false,
  fields: [
    { id: "plan", type: "radio", label: "Plan", options: ["Free", "[Beta]"] },
    { id: "score", type: "nps", label: "Score" },
  ],
};

describe.each(DB_KINDS)("tallies of scalar fields (%s)", (kind) => {
  let s: TestServer;
  let formId: string;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    const api = client(s.url, s.apiKey);
    expect((await api("POST", "/api/forms", { body: form })).status).toBe(201);
    for (const fields of [
      { plan: "Free", score: 5 },
      { plan: "Free" },
      { plan: "[Beta]", score: 9 },
    ])
      expect(
        (await api("POST", "/api/forms/plans/submit", { key: null, body: { fields } })).status,
      ).toBe(201);
    [{ id: formId }] = (await s.ctx.db.query<{ id: string }>(
      "select id from forms where slug = 'plans'",
    )) as [{ id: string }];
    // stored around the API: a list, an object and a JSON null under the radio, a list under the nps
    for (const payload of [
      { plan: ["Free"], score: [5] },
      { plan: { x: 1 } },
      { plan: null, score: 5 },
    ])
      await s.ctx.db.query(
        "insert into responses (form_id, payload, seq) values ($1, $2::jsonb, nextval($3::regclass))",
        [formId, JSON.stringify(payload), formSequence(formId)],
      );
  });
  afterAll(() => s?.close());

  it("counts each option by its label and each number by its value, nothing else", async () => {
    const { fields } = formSchema.parse(form);
    const t = await reportTallies(s.ctx, formId, fields, null, false);
    expect(t.responses).toBe(6);
    expect(Object.fromEntries(t.tallies.get("plan")!.counts)).toEqual({ Free: 2, "[Beta]": 1 });
    expect(Object.fromEntries(t.tallies.get("score")!.numbers)).toEqual({ 5: 2, 9: 1 });
  });
});
