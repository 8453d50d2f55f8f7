// SPEC §24: logic tests against the server. `POST /api/forms/{slug}/test` and MCP test_form run
// cases on the live definition or a proposed one and answer {results, passed, failed}; bad
// cases are a 400 with each problem at its path, never a 500.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseFormFile } from "../../src/core/form-file.ts";
import { client, expectMatchesOpenApi } from "../helpers/api.ts";
import { connectAgent } from "../helpers/mcp-agents.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const text = readFileSync(new URL("../fixtures/examples/quote.md", import.meta.url), "utf8");
const parsed = parseFormFile(text, "quote.md");
if (!parsed.ok) throw new Error("quote.md does not parse");
const { tests: _tests, ...quote } = parsed.form;

let s: TestServer;
let api: ReturnType<typeof client>;
beforeAll(async () => {
  s = await startTestServer();
  api = client(s.url, s.apiKey);
  expect((await api("POST", "/api/forms", { body: { ...quote, humanness: false } })).status).toBe(
    201,
  );
});
afterAll(() => s?.close());

const cases = [
  {
    name: "enterprise to sales",
    answers: { plan: "Enterprise", seats: 3 },
    expect: { ending: "sales", hidden_fields: ["integrations"] },
  },
  {
    name: "wrong total on purpose",
    answers: { plan: "Business", seats: 10 },
    expect: { variables: { total: 100 }, shown: ["nope"], valid: true },
  },
];

describe("POST /api/forms/{slug}/test", () => {
  it("runs cases on the live definition: each passed or its failures (path, expected, got)", async () => {
    const res = await api("POST", "/api/forms/quote/test", { body: { cases } });
    expect(res.status).toBe(200);
    expectMatchesOpenApi("POST", "/api/forms/quote/test", 200, res.body);
    expect(res.body).toEqual({
      results: [
        { name: "enterprise to sales", passed: true, failures: [] },
        {
          name: "wrong total on purpose",
          passed: false,
          failures: [
            { path: "shown.nope", expected: "shown", got: "not a field" },
            { path: "variables.total", expected: 100, got: 120 },
            {
              path: "valid",
              expected: true,
              got: "false (company is required; email is required)",
            },
          ],
        },
      ],
      passed: 1,
      failed: 1,
    });
  });

  it("runs them on a proposed definition, or a form file, even for a slug not created yet", async () => {
    const proposed = { ...quote, slug: "quote-next", endings: undefined };
    const res = await api("POST", "/api/forms/quote-next/test", {
      body: { cases: [cases[0]], definition: proposed },
    });
    expect(res.status).toBe(200);
    // the proposal has no endings: the case that expects sales now says what changed
    expect(res.body.results[0].failures).toEqual([
      { path: "ending", expected: "sales", got: "default" },
    ]);
    const file = await api("POST", "/api/forms/quote/test", { body: { markdown: text } });
    // without cases: the form file's own (its tests: … here none, so none given is refused)
    expect(file.status).toBe(400);
    expect(file.body.details).toEqual([
      { field: "cases", message: "is required (the form has no tests of its own)" },
    ]);
  });

  it("refuses bad cases and a definition of another slug with {error, code}", async () => {
    const bad = await api("POST", "/api/forms/quote/test", {
      body: { cases: [{ name: "x", answers: {}, expect: { ending: 3 } }, { answers: {} }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("validation_failed");
    expect(bad.body.details.map((d: { field: string }) => d.field)).toEqual([
      "cases[0].expect.ending",
      "cases[1].name",
      "cases[1].expect",
    ]);
    const other = await api("POST", "/api/forms/quote/test", {
      body: { cases, definition: { ...quote, slug: "elsewhere" } },
    });
    expect(other.status).toBe(400);
    expect(other.body.code).toBe("invalid_request");
    const missing = await api("POST", "/api/forms/nothing-here/test", { body: { cases } });
    expect(missing.status).toBe(404);
    const notJson = await api("POST", "/api/forms/quote/test", { body: "[" as never });
    expect(notJson.status).toBe(400);
  });
});

describe("MCP test_form", () => {
  it("answers the same run through a real MCP client", async () => {
    const agent = await connectAgent("v2 SDK", s.url, s.apiKey);
    const answer = await agent.call("test_form", { slug: "quote", cases });
    expect(answer.isError).toBeFalsy();
    expect(answer.structuredContent).toMatchObject({ passed: 1, failed: 1 });
    const bad = await agent.call("test_form", { slug: "quote", cases: [{ name: 1 }] });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent.code).toBe("validation_failed");
    await agent.close();
  });
});
