// Third review (docs/security-review.md): `POST /api/forms/{slug}/test` (and MCP test_form) runs
// up to 1,000 cases on a definition the request itself may carry, and a form's variables may hold
// 256 KB of expressions (240 variables of 333 additions each): one walk took ~80 ms, and 1,000
// cases held the event loop 77 s, from any key, a `read` key of any account included. The cases
// of one request are now bounded by the form's weight (its fields, conditions and expression
// nodes): past it the answer is 400 naming how many cases fit. A plan (and so every change of
// the form) walked each stored response twice in one turn of the event loop, a thousand at a
// time (160 s on such a form); it now lets the loop go about every tenth of a second of walks.
// Such variables are now refused (MAX_EXPRESSION_NODES); the heaviest walk allowed here is the
// most variables of 333 terms and an ending of `contains` rules on a long text.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_TEST_WORK } from "../../functions/services/logic-tests.ts";
import { logicWeight } from "../../src/core/logic/weight.ts";
import type { Form } from "../../src/core/schema.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { heavyForm } from "../helpers/heavy-form.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const heavy = heavyForm("heavy");
/** A text the ending's `contains` rules each read (lower-cased) in full: the walk's real work. */
const long = "x".repeat(40_000);
const light = {
  title: "Light",
  slug: "light",
  humanness: false,
  fields: [{ id: "a", type: "number", label: "A" }],
  variables: [{ id: "double", value: "a * 2" }],
};
const cases = (n: number, expect: object = {}) =>
  Array.from({ length: n }, (_, i) => ({ name: `case ${i}`, answers: { a: i }, expect }));

describe.each(DB_KINDS)("logic tests of a heavy form (%s)", (kind) => {
  let s: TestServer;
  let reader: ReturnType<typeof client>;

  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    const other = client(s.url, await s.otherKey());
    const key = await other("POST", "/api/keys", { body: { scopes: ["read"] } });
    expect(key.status).toBe(201);
    reader = client(s.url, key.body.api_key);
  });
  afterAll(() => s?.close());

  it("refuses more cases than the form's weight allows, naming how many fit", async () => {
    const res = await reader("POST", "/api/forms/heavy/test", {
      body: { definition: heavy, cases: cases(1000) },
    });
    expect([res.status, res.body.code]).toEqual([400, "validation_failed"]);
    const weight = logicWeight(heavy as unknown as Form);
    expect(weight).toBeGreaterThan(100_000);
    const most = Math.floor(MAX_TEST_WORK / weight);
    expect(res.body.details).toEqual([
      { field: "cases", message: `at most ${most} for this form` },
    ]);
    const fits = await reader("POST", "/api/forms/heavy/test", {
      body: { definition: heavy, cases: cases(most, { variables: { v0: 0 } }) },
    });
    expect(fits.status).toBe(200);
    expect(fits.body).toMatchObject({ passed: 1, failed: most - 1 });
  });

  it("plans a change of a heavy form's variables without holding the event loop", async () => {
    const owner = client(s.url, s.apiKey);
    expect((await owner("POST", "/api/forms", { body: heavy })).status).toBe(201);
    const [form] = await s.ctx.db.query<{ id: string }>(
      "select id from forms where slug = 'heavy'",
    );
    for (let i = 0; i < 24; i++)
      await s.ctx.db.query(
        `insert into responses (form_id, payload, seq) values ($1, $2::jsonb, $3)`,
        [form!.id, JSON.stringify({ a: i, t: long }), i + 1],
      );
    const order: string[] = [];
    const changed = { variables: [{ id: "v0", value: "a + 1" }, ...heavy.variables.slice(1)] };
    const plan = owner("POST", "/api/forms/heavy/plan", { body: changed }).then((r) => {
      order.push("plan");
      return r;
    });
    // asked once the plan is under way: answered while it walks, not after it
    await new Promise((resolve) => setTimeout(resolve, 50));
    const health = await owner("GET", "/api/health");
    order.push("health");
    expect(health.status).toBe(200);
    const planned = await plan;
    expect(planned.status, JSON.stringify(planned.body).slice(0, 300)).toBe(200);
    expect(planned.body.changes).toContainEqual(
      expect.objectContaining({ kind: "rule_changed", answers_affected: 24 }),
    );
    expect(order).toEqual(["health", "plan"]);
  });

  it("runs a thousand cases of an ordinary form", async () => {
    const res = await reader("POST", "/api/forms/light/test", {
      body: { definition: light, cases: cases(1000, { variables: { double: 0 } }) },
    });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).toBe(200);
    expect(res.body).toMatchObject({ passed: 1, failed: 999 });
  });
});
