// SPEC §24 "The plan lists logic changes": a changed condition, jump, ending condition or variable
// is a rule_changed naming what changed, with the stored responses whose path (fields shown),
// ending or variables it would change — each real response walked under both definitions.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseFormFile } from "../../src/core/form-file.ts";
import { planLines } from "../../src/core/plan/lines.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const parsed = parseFormFile(
  readFileSync(new URL("../fixtures/examples/quote.md", import.meta.url), "utf8"),
  "quote.md",
);
if (!parsed.ok) throw new Error("quote.md does not parse");
const { tests: _t, ...quote } = parsed.form;
const live = { ...quote, humanness: false };

describe.each(DB_KINDS)("logic in the plan (%s)", (db) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    s = await startTestServer({ db });
    api = client(s.url, s.apiKey);
    expect((await api("POST", "/api/forms", { body: live })).status).toBe(201);
    // totals 120, 24, 1600 (Enterprise), 500; and a test answer no count includes
    for (const [plan, seats] of [
      ["Business", 10],
      ["Starter", 3],
      ["Enterprise", 200],
      ["Starter", 62.5],
    ] as const) {
      const fields = { plan, seats, company: "A", email: "a@b.co", integrations: ["SSO"] };
      expect(
        (await api("POST", "/api/forms/quote/submit", { key: null, body: { fields } })).status,
      ).toBe(201);
    }
    await api("POST", "/api/forms/quote/submit", {
      body: { fields: { plan: "Business", seats: 200, company: "T", email: "t@t.co" } },
    });
  }, 120_000);
  afterAll(() => s?.close());

  const plan = async (next: object) => {
    const res = await api("POST", "/api/forms/quote/plan", { body: next });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { changes: { kind: string; detail: string; answers_affected: number }[] };
  };

  it("counts the responses a changed ending condition sends to another ending", async () => {
    const endings = quote.endings!.map((e) =>
      e.id === "sales"
        ? {
            ...e,
            show_if: {
              any: [
                { field: "plan", op: "eq", value: "Enterprise" },
                { field: "total", op: "gte", value: 400 },
              ],
            },
          }
        : e,
    );
    const p = await plan({ ...live, endings });
    const logic = p.changes.filter((c) => c.kind === "rule_changed");
    // the Starter with 62.5 seats (total 500) now reaches sales; nothing else moves
    expect(logic).toEqual([
      { kind: "rule_changed", detail: "logic: endings", answers_affected: 1 },
    ]);
    expect(planLines(p as never)).toContain(
      "~ logic: endings: 1 response would take another path or get other values",
    );
    // an ending's wording alone is content, not logic
    const reworded = await plan({
      ...live,
      endings: quote.endings!.map((e) => ({ ...e, title: `${e.title}!` })),
    });
    expect(reworded.changes.map((c) => c.kind)).toEqual(["content_changed"]);
  });

  it("counts the responses a changed variable or a changed show_if gives other values or fields", async () => {
    const variables = quote.variables!.map((v) =>
      v.id === "per_seat" ? { ...v, value: "if(plan = 'Business', 13, 8)" } : v,
    );
    const p = await plan({ ...live, variables });
    expect(p.changes).toEqual([
      { kind: "rule_changed", detail: "logic: variables", answers_affected: 1 },
    ]);
    const fields = quote.fields.map((f) =>
      f.id === "sso_provider"
        ? { ...f, show_if: { field: "integrations", op: "includes", value: "SSO" } }
        : f,
    );
    const shown = await plan({ ...live, fields });
    // SSO chosen by the Business team (seats 10 ≥ 5 already showed it) and none else on that page
    expect(shown.changes).toEqual([
      {
        kind: "rule_changed",
        field: "sso_provider",
        detail: "rule sso_provider: show_if",
        answers_affected: 0,
      },
    ]);
  });

  it("counts the responses a changed jump takes elsewhere", async () => {
    const fields = quote.fields.map((f) =>
      f.id === "plan"
        ? { ...f, options: ["Starter", "Business", { label: "Enterprise", goto: "Your needs" }] }
        : f,
    );
    // "Your needs" is the next page: the Enterprise response now sees it (integrations shown)
    const p = await plan({ ...live, fields });
    expect(p.changes).toEqual([
      { kind: "rule_changed", detail: "logic: jumps (plan)", answers_affected: 1 },
    ]);
  });
});
