// SPEC §24 "Reports count those who saw a question", on PGlite and Postgres: the report's share of
// a conditional question is of the respondents its path showed it to ("2 of 2 shown (100 %), 5
// respondents"), counted in SQL from the stored responses, and equal for every question to what
// the page's core (walk) says of each stored response.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shownCounts } from "../../functions/reports/shown.ts";
import { parseFormFile } from "../../src/core/form-file.ts";
import { storedPath } from "../../src/core/logic/respond.ts";
import { type Form, formSchema } from "../../src/core/schema.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const parsed = parseFormFile(
  readFileSync(new URL("../fixtures/examples/quote.md", import.meta.url), "utf8"),
  "quote.md",
);
if (!parsed.ok) throw new Error("quote.md does not parse");
const { tests: _t, ...quote } = parsed.form;

/** Jumps on a field and to an ending, a page condition, groups on variables and hidden values. */
const maze: Form = formSchema.parse({
  title: "Maze",
  slug: "maze",
  hidden: ["src"],
  variables: [{ id: "sum", value: "a + count(b)" }],
  steps: [
    {
      id: "3",
      show_if: {
        any: [
          { field: "sum", op: "gte", value: 3 },
          { field: "hidden.src", op: "eq", value: "x" },
        ],
      },
    },
  ],
  endings: [{ id: "out", title: "Out" }],
  fields: [
    { id: "a", type: "number", step: 1 },
    {
      id: "b",
      type: "checkbox",
      options: ["p", { label: "q", goto: 3 }, { label: "r", goto: "out" }],
      step: 1,
    },
    { id: "c", type: "yes_no", step: 2, show_if: { not: { field: "a", op: "answered" } } },
    { id: "d", type: "text", step: 2, goto: 4, show_if: { field: "c", op: "eq", value: "yes" } },
    {
      id: "e",
      type: "text",
      step: 3,
      show_if: {
        all: [
          { field: "b", op: "excludes", value: "p" },
          { field: "a", op: "lt", value: 5 },
        ],
      },
    },
    { id: "f", type: "text", step: 3 },
    { id: "g", type: "text", step: 4, show_if: { field: "f", op: "contains", value: "Hi" } },
  ],
});

/** A seeded generator (mulberry32): the same answers on every run. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;

function mazeAnswers(r: () => number) {
  const answers: Record<string, unknown> = {};
  const maybe = (id: string, values: unknown[]) => {
    const v = pick(r, [undefined, ...values]);
    if (v !== undefined) answers[id] = v;
  };
  maybe("a", [0, 2, 4, 5, 9]);
  maybe("b", [["p"], ["q"], ["r"], ["p", "q"], ["q", "r"]]);
  maybe("c", ["yes", "no"]);
  maybe("d", ["x"]);
  maybe("e", ["x"]);
  maybe("f", ["Hi there", "hello"]);
  maybe("g", ["x"]);
  return { answers, hidden: pick(r, [{}, { src: "x" }, { src: "y" }]) };
}

function quoteAnswers(r: () => number) {
  const answers: Record<string, unknown> = {
    plan: pick(r, ["Starter", "Business", "Enterprise"]),
    seats: pick(r, [1, 4, 5, 90]),
    company: "Acme",
    email: "it@acme.test",
  };
  if (r() < 0.5) answers.billing = pick(r, ["Monthly", "Yearly"]);
  if (r() < 0.7) answers.integrations = pick(r, [["SSO"], ["Slack"], ["SSO", "GitHub"]]);
  if (r() < 0.7) answers.sso_provider = "Okta";
  return { answers, hidden: pick(r, [{}, { ref: "partner" }]) };
}

describe.each(DB_KINDS)("shares of those shown (%s)", (db) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    s = await startTestServer({ db });
    api = client(s.url, s.apiKey);
    for (const form of [quote, maze]) {
      const res = await api("POST", "/api/forms", { body: { ...form, humanness: false } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
  }, 120_000);
  afterAll(() => s?.close());

  it.each([
    ["quote", quote, quoteAnswers, 40],
    ["maze", maze, mazeAnswers, 80],
  ] as const)(
    "counts in SQL what walk says of every stored %s response",
    async (slug, form, gen, n) => {
      const r = random(slug.length * 7919);
      for (let i = 0; i < n; i++) {
        const { answers, hidden } = gen(r);
        const res = await api("POST", `/api/forms/${slug}/submit`, {
          key: null,
          body: { fields: answers, hidden },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
      }
      const stored = (await api("GET", `/api/forms/${slug}/responses?limit=200`)).body
        .responses as {
        payload: Record<string, unknown>;
      }[];
      expect(stored).toHaveLength(n);
      const expected = new Map<string, number>();
      for (const { payload } of stored)
        for (const f of storedPath(form, payload).shown)
          expected.set(f.id, (expected.get(f.id) ?? 0) + 1);
      const { rows } = {
        rows: await s.ctx.db.query<{ id: string }>("select id from forms where slug = $1", [slug]),
      };
      const counted = await shownCounts(s.ctx, rows[0]!.id, form, null, null, false, []);
      expect(counted.size).toBeGreaterThan(0);
      for (const [id, count] of counted)
        expect(`${id}: ${count}`).toBe(`${id}: ${expected.get(id) ?? 0}`);
    },
  );

  it("says so in the report: answered of shown, and the respondents", async () => {
    const report = (await api("GET", "/api/forms/quote/report")).body as string;
    const total = 40;
    // sso_provider shows only with SSO on a team of five or more
    const line = report
      .split("\n")
      .find(
        (l) => /of \d+ shown/.test(l) && report.indexOf(l) > report.indexOf("Your SSO provider"),
      );
    expect(line).toMatch(
      new RegExp(`^_\\d+ of \\d+ shown \\(\\d+(\\.\\d+)? ?%\\), ${total} respondents_$`),
    );
    // a question everyone is shown keeps its plain share
    expect(report).toContain(`_${total} of ${total} answered (100%)_`);
    const html = (await api("GET", "/api/forms/quote/report?format=html")).body as string;
    expect(html).toMatch(/\d+ of \d+ shown \(\d+%\), 40 respondents/);
  });
});
