// SPEC §19 "Bounded work per request" and "key creation is limited per account": each attack is
// answered with a short, clear 4xx and changes nothing else. Timings are printed by
// bench/hostile.ts, not asserted here.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { aliasBombFile, hugeScale } from "./hostile-forms.ts";

describe.each(DB_KINDS)("bounded work per request (SPEC §19) on %s", (db) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  let other: string;
  beforeAll(async () => {
    s = await startTestServer({ db });
    api = client(s.url, s.apiKey);
    other = await s.otherKey();
    const made = await api("POST", "/api/forms", {
      key: other,
      body: {
        title: "Theirs",
        slug: "theirs",
        humanness: false,
        fields: [{ id: "a", type: "text" }],
      },
    });
    expect(made.status).toBe(201);
  });
  afterAll(() => s?.close());

  const raw = async (path: string, body: unknown, key: string | null = s.apiKey) => {
    const res = await fetch(`${s.url}${path}`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...(key ? { authorization: `Bearer ${key}` } : {}),
      },
      body: JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, text, json: JSON.parse(text) };
  };

  it("answers a YAML alias bomb with a short 400 validation_failed while a submit goes through", async () => {
    const [bomb, submit] = await Promise.all([
      raw("/api/forms", { markdown: aliasBombFile() }),
      raw("/api/forms/theirs/submit", { fields: { a: "hello" } }, null),
    ]);
    expect([bomb.status, bomb.json.code]).toEqual([400, "validation_failed"]);
    expect(bomb.text.length).toBeLessThan(2048);
    expect(bomb.json.details[0].message).toMatch(/anchors and aliases/);
    expect(submit.status).toBe(201);
    expect((await api("GET", "/api/forms/bomb")).status).toBe(404);
  });

  it("answers the alias bomb through MCP validate_form with a short validation_failed", async () => {
    const res = await raw("/api/mcp", {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "validate_form", arguments: { markdown: aliasBombFile() } },
    });
    expect(res.status).toBe(200);
    expect(res.text.length).toBeLessThan(2048);
    expect(res.json.result.isError).toBe(true);
    expect(res.json.result.structuredContent.code).toBe("validation_failed");
  });

  it("refuses a scale of 200,000 points with a short 400 and creates nothing", async () => {
    const res = await raw("/api/forms", hugeScale);
    expect([res.status, res.json.code]).toEqual([400, "validation_failed"]);
    expect(res.text.length).toBeLessThan(2048);
    expect(res.json.details).toEqual([
      { field: "fields[0].max", message: expect.stringMatching(/at most 101/) },
    ]);
    expect((await api("GET", "/api/forms/huge-scale")).status).toBe(404);
  });

  it("quotes at most 200 characters of a value in a form's error message", async () => {
    const res = await raw("/api/forms", {
      title: "T",
      slug: "quoted",
      fields: [
        { id: "a", type: "yes_no" },
        { id: "b", type: "text", show_if: { field: "a", op: "eq", value: "z".repeat(500_000) } },
      ],
    });
    expect([res.status, res.json.code]).toEqual([400, "validation_failed"]);
    expect(res.text.length).toBeLessThan(2048);
  });

  it("limits live keys per account (409) and key creation per hour (429 with Retry-After)", async () => {
    const me = await s.otherKey();
    const mine = client(s.url, me);
    const made: string[] = [];
    // the account's first key is live already
    for (let i = 1; i < 20; i++) {
      const res = await mine("POST", "/api/keys", { body: { name: `k${i}` } });
      expect(res.status).toBe(201);
      made.push(res.body.id);
    }
    const full = await mine("POST", "/api/keys", { body: { name: "one more" } });
    expect([full.status, full.body.code]).toEqual([409, "conflict"]);
    expect(full.body.error).toMatch(/at most 20 live/);
    expect((await mine("DELETE", `/api/keys/${made[0]}`)).status).toBe(204);
    const fast = await mine("POST", "/api/keys", { body: { name: "again" } });
    expect([fast.status, fast.body.code]).toEqual([429, "rate_limited"]);
    expect(Number(fast.headers.get("retry-after"))).toBeGreaterThan(0);
    const listed = await mine("GET", "/api/keys");
    expect(listed.body.keys).toHaveLength(20);
    // another account is not affected
    expect((await api("POST", "/api/keys", { body: { name: "mine" } })).status).toBe(201);
  });
});
