// Eighth review (docs/security-review.md): a report counts those shown each conditional question
// in one SQL statement (functions/reports/shown.ts), a LATERAL per page that jumps. Postgres
// pasted each LATERAL's expression into the next, so each page's held every earlier page's
// twice: a survey of twenty questions that each skip one ahead (a valid form of any account)
// made `GET …/report` (a `read` key, MCP get_response_report, a viewer's /results report) run
// 13-15 s in PGlite, on the event loop, and fail out of memory; on Postgres it held one of the
// pool's four connections to the statement timeout (503), so a handful of reports stalled every
// other request. The statement is now linear in the form and fenced (`offset 0`); a form past
// 200 LATERALs is reported with plain shares.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shownCounts } from "../../functions/reports/shown.ts";
import { storedPath } from "../../src/core/logic/respond.ts";
import { type Form, formSchema } from "../../src/core/schema.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

/** A survey of `n` questions, each with an option that skips the next one. */
const skipping = (slug: string, n: number): Form =>
  formSchema.parse({
    title: "Skips",
    slug,
    type: "survey",
    humanness: false,
    fields: Array.from({ length: n }, (_, i) => ({
      id: `q${i}`,
      type: "radio",
      options: i + 2 < n ? [{ label: "skip", goto: `q${i + 2}` }, "stay"] : ["stay"],
    })),
  });

/** Steps whose condition names pages apart (step 1 comes back), beside a field's own jump. */
const steps: Form = formSchema.parse({
  title: "Steps",
  slug: "steps",
  humanness: false,
  steps: [{ id: 2, show_if: { field: "a", op: "eq", value: "yes" } }],
  fields: [
    { id: "a", type: "yes_no", step: 1 },
    { id: "b", type: "text", step: 2, goto: "d" },
    { id: "c", type: "text", step: 1 },
    { id: "d", type: "text", step: 2 },
    { id: "e", type: "text", step: 3, show_if: { field: "b", op: "answered" } },
  ],
});

describe.each(DB_KINDS)("shares of a form of many jumps (%s)", (db) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    s = await startTestServer({ db });
    api = client(s.url, s.apiKey);
  });
  afterAll(() => s?.close());

  async function answered(form: Form, answers: Record<string, unknown>[]) {
    const res = await api("POST", "/api/forms", { body: { ...form, status: "live" } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    for (const fields of answers) {
      const sent = await api("POST", `/api/forms/${form.slug}/submit`, {
        key: null,
        body: { fields },
      });
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    }
  }

  /** What walk says of each stored response, and what the statement counts. */
  async function bothCounts(form: Form) {
    const stored = (await api("GET", `/api/forms/${form.slug}/responses?limit=200`)).body
      .responses as { payload: Record<string, unknown> }[];
    const walked = new Map<string, number>();
    for (const { payload } of stored)
      for (const f of storedPath(form, payload).shown)
        walked.set(f.id, (walked.get(f.id) ?? 0) + 1);
    const [row] = await s.ctx.db.query<{ id: string }>("select id from forms where slug = $1", [
      form.slug,
    ]);
    const counted = await shownCounts(s.ctx, row!.id, form, null, null, false, []);
    return { walked, counted };
  }

  it("reports a survey of thirty skipping questions, each share of those shown", async () => {
    const form = skipping("skips", 30);
    const pick = (i: number, k: number) => (i < 28 && (i * 7 + k * 3) % 4 === 0 ? "skip" : "stay");
    await answered(
      form,
      [0, 1, 2, 3].map((k) => Object.fromEntries(form.fields.map((f, i) => [f.id, pick(i, k)]))),
    );
    const report = await api("GET", "/api/forms/skips/report");
    expect(report.status).toBe(200);
    expect(report.body).toMatch(/of \d+ shown/);
    const { walked, counted } = await bothCounts(form);
    expect(counted.size).toBe(29);
    for (const [id, n] of counted) expect(`${id}: ${n}`).toBe(`${id}: ${walked.get(id) ?? 0}`);
  });

  it("counts a step's pages apart as walk does", async () => {
    await answered(steps, [
      { a: "yes", b: "x", c: "y", d: "z", e: "w" },
      { a: "no", c: "y", e: "w" },
      { a: "yes", c: "y", d: "z" },
    ]);
    const { walked, counted } = await bothCounts(steps);
    expect(counted.size).toBeGreaterThan(0);
    for (const [id, n] of counted) expect(`${id}: ${n}`).toBe(`${id}: ${walked.get(id) ?? 0}`);
  });

  it("reports a survey of 500 skipping questions, with plain shares", async () => {
    const form = skipping("many", 500);
    await answered(form, [{ q0: "stay" }]);
    const report = await api("GET", "/api/forms/many/report");
    expect(report.status).toBe(200);
    expect(report.body).not.toMatch(/of \d+ shown/);
  });
});
