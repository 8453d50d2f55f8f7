// SPEC §26 "audit log": every read of responses (list, single, export, report) and every change,
// through REST or MCP, is written once with who (key and member), what, which form, when and from
// where; GET /api/audit filters and pages it, `formdown audit` prints it; rows go after 365 days.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROUTE_ACTIONS } from "../../functions/audit/actions.ts";
import { pruneAudit } from "../../functions/audit/log.ts";
import { TOOL_ACTIONS, TOOL_SCOPES } from "../../functions/mcp/registry.ts";
import { ROUTE_SCOPES } from "../../functions/route-scopes.ts";
import { client } from "../helpers/api.ts";
import { runFormdown } from "../helpers/cli.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { type Agent, connectAgent } from "../helpers/mcp-agents.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe.each(DB_KINDS)("audit log (%s)", { timeout: 120_000 }, (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  let viewer: { id: string; email: string; key: string; keyId: string };
  let agent: Agent;

  const audit = async (query = "") => {
    const res = await api("GET", `/api/audit${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body as { entries: any[]; total: number; page: number; limit: number };
  };

  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
    const created = await api("POST", "/api/forms", {
      body: {
        title: "Team",
        slug: "team",
        humanness: false,
        fields: [{ id: "note", type: "text" }],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    for (const note of ["one", "two"])
      await api("POST", "/api/forms/team/submit", { key: null, body: { fields: { note } } });
    const added = await api("POST", "/api/members", {
      body: { email: "vera@example.com", role: "viewer" },
    });
    viewer = {
      id: added.body.member.id,
      email: "vera@example.com",
      key: added.body.key.api_key,
      keyId: added.body.key.id,
    };
    agent = await connectAgent("v2 SDK", s.url, viewer.key);
  }, 300_000);

  afterAll(async () => {
    await agent?.close();
    await s?.close();
  });

  it("records a member's export with who, what, which form, when and from where", async () => {
    const before = Date.now();
    const res = await fetch(`${s.url}/api/forms/team/responses/export?format=csv`, {
      headers: { authorization: `Bearer ${viewer.key}` },
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("two");
    const { entries } = await audit("?action=responses.export");
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: { name: viewer.email, member_id: viewer.id, key_id: viewer.keyId },
      action: "responses.export",
      form: "team",
      detail: { format: "csv" },
      ip: expect.stringMatching(/127\.0\.0\.1/),
    });
    const at = Date.parse(entries[0].at);
    expect(at).toBeGreaterThanOrEqual(before - 5_000);
    expect(at).toBeLessThanOrEqual(Date.now() + 5_000);
  });

  it("records every read of responses and every change, and nothing refused", async () => {
    const member = client(s.url, viewer.key);
    const list = await member(
      "GET",
      `/api/forms/team/responses?where=${encodeURIComponent('[{"field":"note","op":"eq","value":"one"}]')}`,
    );
    expect(list.body.total).toBe(1);
    const one = list.body.responses[0].id;
    expect((await member("GET", `/api/forms/team/responses/${one}`)).status).toBe(200);
    expect((await member("GET", "/api/forms/team/report")).status).toBe(200);
    expect((await member("PATCH", "/api/forms/team", { body: { title: "Mine" } })).status).toBe(
      403,
    );
    expect((await api("PATCH", "/api/forms/team", { body: { title: "Team!" } })).status).toBe(200);
    const access = await api("PUT", "/api/forms/team/access", { body: { mode: "link" } });
    expect(access.status, JSON.stringify(access.body)).toBe(200);
    const key = await api("POST", "/api/keys", { body: { name: "ci", scopes: ["read"] } });
    expect((await api("DELETE", `/api/keys/${key.body.id}`)).status).toBe(204);
    const erased = await api("DELETE", `/api/forms/team/responses/${one}`);
    expect(erased.status).toBe(204);

    const { entries } = await audit("?form=team&limit=200");
    const mine = entries.filter((e) => e.actor.member_id === viewer.id).map((e) => e.action);
    expect(mine).toEqual([
      "responses.report",
      "responses.read",
      "responses.list",
      "responses.export",
    ]);
    const list0 = entries.find((e) => e.action === "responses.list");
    expect(list0.detail.where).toContain('"value":"one"');
    expect(entries.find((e) => e.action === "responses.read").detail).toEqual({ id: one });
    const owner = entries.filter((e) => e.actor.member_id === null).map((e) => e.action);
    expect(owner).toEqual(
      expect.arrayContaining(["form.update", "form.access", "responses.erase"]),
    );
    const all = (await audit("?limit=200")).entries.map((e) => e.action);
    expect(all).toEqual(
      expect.arrayContaining(["key.create", "key.revoke", "member.add", "form.create"]),
    );
    expect((await audit("?action=form.create")).entries[0]).toMatchObject({ form: "team" });
  });

  it("records MCP tool calls in the same log", async () => {
    const answer = await agent.call("export_responses", { slug: "team", format: "json" });
    expect(answer.isError).toBeFalsy();
    const refused = await agent.call("update_form", { slug: "team", title: "x" });
    expect(refused.isError).toBe(true);
    const { entries } = await audit("?action=responses.export");
    expect(entries[0]).toMatchObject({
      actor: { name: viewer.email, member_id: viewer.id },
      action: "responses.export",
      form: "team",
      detail: { format: "json" },
    });
    expect(
      (await audit("?action=form.update")).entries.every((e) => e.actor.member_id === null),
    ).toBe(true);
  });

  it("reads the log through MCP with list_audit, as GET /api/audit does (an owner's key)", async () => {
    const owner = await connectAgent("v2 SDK", s.url, s.apiKey);
    try {
      const read = await owner.call("list_audit", { action: "responses.export", form: "team" });
      expect(read.isError, JSON.stringify(read.structuredContent)).toBeFalsy();
      const { entries } = read.structuredContent as { entries: any[] };
      expect(entries).toEqual((await audit("?action=responses.export&form=team")).entries);
      expect(entries[0]).toMatchObject({ actor: { name: viewer.email }, form: "team" });
      const older = await owner.call("list_audit", { until: entries[0].at });
      expect(
        (older.structuredContent as { entries: any[] }).entries.every((e) => e.at < entries[0].at),
      ).toBe(true);
      const bad = await owner.call("list_audit", { since: "yesterday" });
      expect(bad.isError).toBe(true);
      expect(bad.structuredContent).toMatchObject({ code: "invalid_param" });
    } finally {
      await owner.close();
    }
    const refused = await agent.call("list_audit", {});
    expect(refused.structuredContent).toMatchObject({ code: "forbidden" });
  });

  it("filters by action family, form and time, pages with the shared limit, refuses bad filters", async () => {
    const family = await audit("?action=responses");
    expect(family.entries.length).toBeGreaterThan(3);
    expect(family.entries.every((e) => e.action.startsWith("responses."))).toBe(true);
    expect((await audit("?form=no-such-form")).entries).toEqual([]);
    expect((await audit("?since=2999-01-01")).total).toBe(0);
    const first = await audit("?limit=2");
    const second = await audit("?limit=2&page=2");
    expect(first.entries).toHaveLength(2);
    expect(second.entries[0].id).not.toBe(first.entries[0].id);
    expect(second.total).toBe(first.total);
    expect(Date.parse(first.entries[1].at)).toBeGreaterThanOrEqual(
      Date.parse(second.entries[0].at),
    );
    const past = await audit("?page=1000");
    expect(past).toMatchObject({ entries: [], total: first.total });
    for (const bad of ["?limit=201", "?action=DROP%20TABLE", "?since=yesterday", "?form=A_B"]) {
      const res = await api("GET", `/api/audit${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body.code).toBe("invalid_param");
    }
    expect((await client(s.url, viewer.key)("GET", "/api/audit")).status).toBe(403);
  });

  it("names an action for every change of the REST table and every tool that writes or reads answers", () => {
    const reads = /responses|report|stats|export/;
    const changes = Object.entries(ROUTE_SCOPES)
      // a POST a read key may send is a dry run (the plan, the logic tests): it changes nothing
      .filter(([route, rule]) => !route.startsWith("GET ") && rule.scope !== "read")
      .map(([route]) => route);
    expect(changes.filter((r) => !(r in ROUTE_ACTIONS))).toEqual([]);
    const answers = Object.keys(ROUTE_SCOPES).filter(
      (r) => r.startsWith("GET /api/forms/:slug/") && reads.test(r) && !r.includes("webhooks"),
    );
    expect(answers.filter((r) => !(r in ROUTE_ACTIONS))).toEqual([]);
    expect(Object.keys(ROUTE_ACTIONS).filter((r) => !(r in ROUTE_SCOPES))).toEqual([]);
    const tools = Object.entries(TOOL_SCOPES)
      .filter(([name, scope]) => scope !== "read" || reads.test(name))
      .map(([name]) => name)
      .filter((name) => !/^list_(webhook|audit)/.test(name));
    expect(tools.filter((t) => !(t in TOOL_ACTIONS))).toEqual([]);
    expect(Object.keys(TOOL_ACTIONS).filter((t) => !(t in TOOL_SCOPES))).toEqual([]);
  });

  it("prints the log with `formdown audit`", async () => {
    const env = { env: { FORMDOWN_URL: s.url, FORMDOWN_API_KEY: s.apiKey } };
    const run = await runFormdown(["audit", "--action", "responses.export"], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/vera@example\.com\s+responses\.export\s+team\s+format=json/);
    const bad = await runFormdown(["audit", "--limit", "0"], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("limit");
  });

  it("keeps rows 365 days: the periodic prune removes older ones only", async () => {
    const [account] = await s.ctx.db.query<{ id: string }>(
      "select id from accounts where handler = $1",
      [s.handler],
    );
    await s.ctx.db.query(
      `insert into audit_log (account_id, actor, action, at)
       values ($1, 'old', 'responses.list', now() - interval '366 days'),
              ($1, 'kept', 'responses.list', now() - interval '364 days')`,
      [account!.id],
    );
    const before = (await audit()).total;
    expect(await pruneAudit(s.ctx.db)).toBe(1);
    const after = await audit("?limit=200");
    expect(after.total).toBe(before - 1);
    expect(after.entries.map((e) => e.actor.name)).toContain("kept");
    expect(after.entries.map((e) => e.actor.name)).not.toContain("old");
  });
});
