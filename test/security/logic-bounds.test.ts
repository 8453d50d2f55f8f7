// Third review (docs/security-review.md): a form's variables concatenate text (SPEC §24), and a
// variable may repeat another up to 333 times in its 1,000 characters: four variables grow a
// 990-character text past V8's longest string (2^29). Evaluation threw a RangeError ("evaluation
// never throws", expr-eval.ts), so any account's form answered every anonymous submit, test run
// and test_form with a 500; one variable short of the limit (439 M characters) held the event
// loop over a second and 850 MB to write the response. Joined text is now at most 10,000
// characters (longer is no value), on the page and the server alike.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseExpr } from "../../src/core/logic/expr.ts";
import { evaluate } from "../../src/core/logic/expr-eval.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const chain = (v: string) =>
  Array(Math.floor(1000 / (v.length + 1)))
    .fill(v)
    .join("+");

const definition = {
  title: "Grows",
  slug: "grows",
  humanness: false,
  fields: [{ id: "name", type: "text", label: "Name" }],
  variables: [
    { id: "v0", value: `"${"x".repeat(990)}"` },
    { id: "v1", value: chain("v0") },
    { id: "v2", value: chain("v1") },
    { id: "v3", value: chain("v2") },
    { id: "greeting", value: `"Hello, " + name` },
  ],
};

describe("joined text in an expression", () => {
  it("is at most 10,000 characters: longer is no value, never a throw", () => {
    const parsed = parseExpr("t + t");
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const read = (n: number) => () => "y".repeat(n);
    expect(evaluate(parsed.node, read(5000))).toHaveLength(10_000);
    expect(evaluate(parsed.node, read(5001))).toBeNull();
  });
});

describe.each(DB_KINDS)("variables that grow text (%s)", (kind) => {
  let s: TestServer;
  let other: ReturnType<typeof client>;

  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    other = client(s.url, await s.otherKey());
    const made = await other("POST", "/api/forms", { body: definition });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
  });
  afterAll(() => s?.close());

  it("store an anonymous submit, each at most 10,000 characters", async () => {
    const sent = await other("POST", "/api/forms/grows/submit", {
      key: null,
      body: { fields: { name: "Ada" } },
    });
    expect(sent.status, JSON.stringify(sent.body).slice(0, 300)).toBe(201);
    const [row] = await s.ctx.db.query<{ variables: unknown }>("select variables from responses");
    const variables = (
      typeof row!.variables === "string" ? JSON.parse(row!.variables) : row!.variables
    ) as Record<string, unknown>;
    expect(variables).toMatchObject({ greeting: "Hello, Ada" });
    expect(variables.v0).toHaveLength(990);
    for (const id of ["v1", "v2", "v3"])
      expect(String(variables[id] ?? "").length).toBeLessThanOrEqual(10_000);
  });

  it("run as logic tests", async () => {
    const run = await other("POST", "/api/forms/grows/test", {
      body: {
        cases: Array.from({ length: 50 }, (_, i) => ({
          name: `case ${i}`,
          answers: { name: "Ada" },
          expect: { variables: { greeting: "Hello, Ada" } },
        })),
      },
    });
    expect(run.status, JSON.stringify(run.body).slice(0, 300)).toBe(200);
    expect(run.body).toMatchObject({ passed: 50, failed: 0 });
  });
});
