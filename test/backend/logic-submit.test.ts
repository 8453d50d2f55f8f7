// SPEC §24 on the server, on PGlite and Postgres: a submit whose answers take a path stores the
// ending and the variables the core computes for them (the page's core, src/core/logic/walk.ts),
// an answer to a field the logic hid goes to `ignored`, and a variable value the body claims is
// never taken: the server computes it.
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseFormFile } from "../../src/core/form-file.ts";
import { runCase } from "../../src/core/logic/cases.ts";
import { findPaths } from "../../src/core/logic/paths.ts";
import { walk } from "../../src/core/logic/walk.ts";
import type { Form } from "../../src/core/schema.ts";
import { client, expectMatchesOpenApi } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const file = new URL("../fixtures/examples/quote.md", import.meta.url);
const parsed = parseFormFile(readFileSync(file, "utf8"), "quote.md");
if (!parsed.ok) throw new Error("quote.md does not parse");
const quote: Form = parsed.form;
const { tests: _tests, ...definition } = quote;

describe.each(DB_KINDS)("logic on submit (%s)", (db) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  const submit = (slug: string, body: Record<string, unknown>) =>
    api("POST", `/api/forms/${slug}/submit`, { key: null, body });
  const stored = async (slug: string, id: string) =>
    (await api("GET", `/api/forms/${slug}/responses/${id}`)).body as {
      payload: Record<string, unknown>;
      ending?: string;
      variables?: Record<string, unknown>;
    };

  beforeAll(async () => {
    s = await startTestServer({ db });
    api = client(s.url, s.apiKey);
    const created = await api("POST", "/api/forms", {
      body: { ...definition, humanness: false },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    // a form whose submits go through the shared INSERT (no email, no cap): endings and variables
    const plain = await api("POST", "/api/forms", {
      body: {
        title: "Plain",
        slug: "plain",
        humanness: false,
        variables: [{ id: "double", value: "n * 2" }],
        endings: [
          { id: "big", show_if: { field: "double", op: "gt", value: 10 }, title: "Big" },
          { id: "small", title: "Small" },
        ],
        fields: [{ id: "n", type: "number", required: true }],
      },
    });
    expect(plain.status, JSON.stringify(plain.body)).toBe(201);
  }, 120_000);
  afterAll(() => s?.close());

  it("stores, for every path the form has, the ending and variables the core computes", async () => {
    const { paths, complete } = findPaths(quote);
    expect(complete).toBe(true);
    expect(paths.length).toBeGreaterThanOrEqual(4);
    for (const path of paths) {
      const res = await submit("quote", { fields: path.answers, hidden: path.hidden ?? {} });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      expectMatchesOpenApi("POST", "/api/forms/quote/submit", 201, res.body);
      const core = walk(quote, path.answers, path.hidden);
      expect(res.body.ending).toBe(core.ending);
      const record = await stored("quote", res.body.response_id);
      expect(record.ending).toBe(core.ending);
      expect(record.variables).toEqual(core.variables);
      expectMatchesOpenApi(
        "GET",
        `/api/forms/quote/responses/${res.body.response_id}`,
        200,
        record,
      );
    }
  });

  it("stores what the example's test cases expect, hidden values included", async () => {
    const partner = { plan: "Starter", seats: 10, company: "Acme", email: "it@acme.test" };
    const res = await submit("quote", { fields: partner, hidden: { ref: "partner" } });
    expect(res.status).toBe(201);
    const record = await stored("quote", res.body.response_id);
    expect(record.variables).toEqual({ per_seat: 7, total: 70 });
    expect(record.ending).toBe("quote");
    const check = runCase(quote, {
      name: "stored",
      answers: record.payload,
      hidden: { ref: "partner" },
      expect: { variables: record.variables!, ending: record.ending! },
    });
    expect(check.failures).toEqual([]);
  });

  it("puts an answer to a field the logic hid (a skipped page, a group) in ignored, and stores none of it", async () => {
    const res = await submit("quote", {
      fields: {
        plan: "Enterprise",
        seats: 3,
        integrations: ["SSO"],
        sso_provider: "Okta",
        company: "Acme",
        email: "it@acme.test",
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.ignored).toEqual(["integrations", "sso_provider"]);
    expect(res.body.ending).toBe("sales");
    const record = await stored("quote", res.body.response_id);
    expect(Object.keys(record.payload).sort()).toEqual([
      "_hidden",
      "company",
      "email",
      "plan",
      "seats",
    ]);
    expect(record.ending).toBe("sales");
  });

  it("never takes a variable value from the body: the server computes it", async () => {
    const res = await submit("quote", {
      fields: { plan: "Business", seats: 2, company: "Acme", email: "it@acme.test" },
      variables: { total: 99_999, per_seat: 0 },
      ending: "sales",
    });
    expect(res.status).toBe(201);
    expect(res.body.ending).toBe("quote");
    const record = await stored("quote", res.body.response_id);
    expect(record.variables).toEqual({ per_seat: 12, total: 24 });
    expect(record.ending).toBe("quote");
    // a variable's id among the answers is no field: refused, as any unknown id (SPEC §5)
    const claimed = await submit("quote", {
      fields: { plan: "Business", seats: 2, total: 1, company: "Acme", email: "it@acme.test" },
    });
    expect(claimed.status).toBe(400);
    expect(claimed.body).toMatchObject({
      code: "validation_failed",
      details: [{ field: "total", message: "is not a field of this form" }],
    });
  });

  it("names the same ending again for a retried submit (its Idempotency-Key)", async () => {
    const body = { fields: { plan: "Enterprise", seats: 2, company: "A", email: "a@b.co" } };
    const headers = { "idempotency-key": `retry-${db}` };
    const first = await api("POST", "/api/forms/quote/submit", { key: null, body, headers });
    const again = await api("POST", "/api/forms/quote/submit", { key: null, body, headers });
    expect(first.status).toBe(201);
    expect(again.body).toMatchObject({ response_id: first.body.response_id, ending: "sales" });
  });

  it("refuses a required field on the path, and not one the path skips", async () => {
    // seats is required and on every path
    const missing = await submit("quote", {
      fields: { plan: "Business", company: "A", email: "a@b.co" },
    });
    expect(missing.status).toBe(400);
    expect(missing.body.details).toEqual([{ field: "seats", message: "is required" }]);
  });

  it("records ending and variables through the shared INSERT of concurrent submits too", async () => {
    const ns = [1, 4, 6, 9, 20];
    const answers = await Promise.all(ns.map((n) => submit("plain", { fields: { n } })));
    for (const [i, res] of answers.entries()) {
      expect(res.status).toBe(201);
      const record = await stored("plain", res.body.response_id);
      expect(record.variables).toEqual({ double: ns[i]! * 2 });
      expect(record.ending).toBe(ns[i]! * 2 > 10 ? "big" : "small");
      expect(res.body.ending).toBe(record.ending);
    }
  });

  it("stores test answers (the owner's key) with their ending and variables", async () => {
    const res = await api("POST", "/api/forms/plain/submit", { body: { fields: { n: 7 } } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ test: true, ending: "big" });
    const record = await stored("plain", res.body.response_id);
    expect(record).toMatchObject({ ending: "big", variables: { double: 14 } });
  });
});
