// SPEC §23 "Reads show the live ids": after a field is renamed (update_field {id: fix →
// fix_first}, which records `formerly: [fix]`), the responses list, a single response — REST and
// MCP list_responses / get_response — show the old answers under the live id, as exports and
// stats do, and a filter on the live id finds them.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { type Agent, connectAgent } from "../helpers/mcp-agents.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe.each(DB_KINDS)("reads under the live ids (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  let agent: Agent;
  let old: string;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
    const created = await api("POST", "/api/forms", {
      body: {
        title: "Feedback",
        slug: "fb",
        humanness: false,
        fields: [
          { id: "fix", type: "text", label: "What should we fix?" },
          { id: "plan", type: "radio", options: ["Free", "Team"] },
        ],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const res = await api("POST", "/api/forms/fb/submit", {
      key: null,
      body: { fields: { fix: "billing page", plan: "Team" } },
    });
    expect(res.status).toBe(201);
    old = res.body.response_id;
    agent = await connectAgent("v2 SDK", s.url, s.apiKey);
    const renamed = await agent.call("update_field", {
      slug: "fb",
      field_id: "fix",
      changes: { id: "fix_first" },
    });
    expect(renamed.isError, JSON.stringify(renamed.structuredContent)).toBeFalsy();
    const fresh = await api("POST", "/api/forms/fb/submit", {
      key: null,
      body: { fields: { fix_first: "search", plan: "Free" } },
    });
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await agent?.close();
    await s?.close();
  });

  const payloads = (records: { payload: Record<string, unknown> }[]) =>
    records.map((r) => r.payload).reverse();

  it("lists old answers under the live id (REST, both variants)", async () => {
    const a = await api("GET", "/api/forms/fb/responses");
    expect(a.status).toBe(200);
    expect(payloads(a.body.responses)).toEqual([
      { fix_first: "billing page", plan: "Team" },
      { fix_first: "search", plan: "Free" },
    ]);
    const b = await api("GET", "/api/forms/fb/submissions");
    expect(payloads(b.body.submissions)[0]).toEqual({ fix_first: "billing page", plan: "Team" });
  });

  it("shows one old response under the live id (REST)", async () => {
    const one = await api("GET", `/api/forms/fb/responses/${old}`);
    expect(one.status).toBe(200);
    expect(one.body.payload).toEqual({ fix_first: "billing page", plan: "Team" });
  });

  it("lists and gets old answers under the live id (MCP)", async () => {
    const list = await agent.call("list_responses", { slug: "fb" });
    expect(list.isError).toBeFalsy();
    const records = list.structuredContent.responses;
    expect(payloads(records)[0]).toEqual({ fix_first: "billing page", plan: "Team" });
    const one = await agent.call("get_response", { slug: "fb", response_id: old });
    expect(one.isError).toBeFalsy();
    expect(one.structuredContent.payload).toEqual({ fix_first: "billing page", plan: "Team" });
  });

  it("finds old answers by a filter on the live id", async () => {
    const where = JSON.stringify([{ field: "fix_first", op: "contains", value: "billing" }]);
    const rest = await api("GET", `/api/forms/fb/responses?where=${encodeURIComponent(where)}`);
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    expect(payloads(rest.body.responses)).toEqual([{ fix_first: "billing page", plan: "Team" }]);
    const mcp = await agent.call("list_responses", { slug: "fb", where: JSON.parse(where) });
    expect(mcp.isError, JSON.stringify(mcp.structuredContent)).toBeFalsy();
    const records = mcp.structuredContent.responses;
    expect(records).toHaveLength(1);
    expect(records[0].payload.fix_first).toBe("billing page");
  });

  it("takes the earlier id in a filter as the live field", async () => {
    const where = JSON.stringify([{ field: "fix", op: "answered" }]);
    const rest = await api("GET", `/api/forms/fb/responses?where=${encodeURIComponent(where)}`);
    expect(rest.status, JSON.stringify(rest.body)).toBe(200);
    expect(payloads(rest.body.responses).map((p) => p.fix_first)).toEqual([
      "billing page",
      "search",
    ]);
  });
});
