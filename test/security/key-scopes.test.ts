// SPEC §23 "Keys have scopes" (issue 41 item 7): `read` < `write` < `admin`, optionally limited to
// some forms, refused with 403 `forbidden` naming the scope needed on REST, MCP and the CLI. Every
// REST route and MCP tool is in the one table of its surface, and each table entry is enforced.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOOL_SCOPES, TOOLS } from "../../functions/mcp/registry.ts";
import { ownerApp } from "../../functions/owner-app.ts";
import { ROUTE_SCOPES } from "../../functions/route-scopes.ts";
import { client } from "../helpers/api.ts";
import { runFormdown } from "../helpers/cli.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { type Agent, connectAgent } from "../helpers/mcp-agents.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

/** Routes of the owner app that take no key (or check it themselves, as MCP does per tool). */
const KEYLESS = new Set([
  "GET /api/openapi.json",
  "GET /api/form.schema.json",
  "POST /api/accounts",
  "POST /api/mcp",
  "GET /api/mcp",
  "DELETE /api/mcp",
  "GET /api/mcp/server-card",
  "ALL /api/*",
]);
const UUID = "00000000-0000-4000-8000-000000000000";
/** A route pattern as a request path: the slug, then a well-formed id for each other parameter. */
const pathOf = (pattern: string, slug: string) =>
  pattern.replace(/:slug/, slug).replace(/:[a-z]+(\{[^/]*\})?/gi, UUID);

describe.each(DB_KINDS)("key scopes (%s)", { timeout: 120_000 }, (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  const keys = { read: "", write: "", alphaOnly: "" };
  let readAgent: Agent;
  let writeAgent: Agent;
  let alphaAgent: Agent;

  const newKey = async (body: object) => {
    const res = await api("POST", "/api/keys", { body });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.api_key as string;
  };

  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
    for (const slug of ["alpha", "beta"]) {
      const created = await api("POST", "/api/forms", {
        body: { title: slug, slug, humanness: false, fields: [{ id: "note", type: "text" }] },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const sent = await api("POST", `/api/forms/${slug}/submit`, {
        key: null,
        body: { fields: { note: `hello ${slug}` } },
      });
      expect(sent.status).toBe(201);
    }
    keys.read = await newKey({ name: "reader", scopes: ["read"] });
    keys.write = await newKey({ name: "writer", scopes: ["write"] });
    keys.alphaOnly = await newKey({ name: "alpha", scopes: ["admin"], forms: ["alpha"] });
    [readAgent, writeAgent, alphaAgent] = await Promise.all([
      connectAgent("v2 SDK", s.url, keys.read),
      connectAgent("v1 SDK", s.url, keys.write),
      connectAgent("bare POST", s.url, keys.alphaOnly),
    ]);
  }, 300_000);

  afterAll(async () => {
    await Promise.all([readAgent?.close(), writeAgent?.close(), alphaAgent?.close()]);
    await s?.close();
  });

  const forbidden = (res: { status: number; body: any }, scope: string) => {
    expect(res.status, JSON.stringify(res.body)).toBe(403);
    expect(res.body.code).toBe("forbidden");
    expect(res.body.error).toContain(`"${scope}" scope`);
  };

  it("lists every key with its scopes; the first key is admin on every form", async () => {
    const { status, body } = await api("GET", "/api/keys");
    expect(status).toBe(200);
    const byName = Object.fromEntries(body.keys.map((k: any) => [k.name, k]));
    expect(byName.default).toMatchObject({ scopes: ["admin"], forms: null });
    expect(byName.reader).toMatchObject({ scopes: ["read"], forms: null });
    expect(byName.alpha).toMatchObject({ scopes: ["admin"], forms: ["alpha"] });
    const bad = await api("POST", "/api/keys", { body: { scopes: ["root"] } });
    expect(bad.status).toBe(400);
    expect(bad.body.details).toEqual([{ field: "scopes", message: expect.any(String) }]);
  });

  it("lets a read key read responses and exports, and refuses every change with 403", async () => {
    const read = client(s.url, keys.read);
    const list = await read("GET", "/api/forms/alpha/responses");
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(1);
    const csv = await fetch(`${s.url}/api/forms/alpha/responses/export?format=csv`, {
      headers: { authorization: `Bearer ${keys.read}` },
    });
    expect(csv.status).toBe(200);
    expect(await csv.text()).toContain("hello alpha");
    expect((await read("POST", "/api/forms/alpha/plan", { body: { title: "x" } })).status).not.toBe(
      403,
    );
    forbidden(await read("PATCH", "/api/forms/alpha", { body: { title: "Renamed" } }), "write");
    forbidden(await read("POST", "/api/keys", { body: { scopes: ["read"] } }), "admin");
    forbidden(await read("GET", "/api/forms/alpha/webhooks"), "admin");
    forbidden(
      await read("POST", "/api/forms/alpha/webhooks", { body: { url: "https://example.com/h" } }),
      "admin",
    );
    forbidden(await read("DELETE", "/api/forms/alpha/responses"), "admin");
    forbidden(await read("DELETE", "/api/forms/alpha"), "admin");
    expect((await api("GET", "/api/forms/alpha")).body.title).toBe("alpha");
  });

  it("lets a write key change forms but not keys, webhooks or deletes", async () => {
    const write = client(s.url, keys.write);
    const patched = await write("PATCH", "/api/forms/beta", { body: { title: "Beta" } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.title).toBe("Beta");
    forbidden(await write("POST", "/api/keys", { body: {} }), "admin");
    forbidden(await write("GET", "/api/keys"), "admin");
    forbidden(await write("DELETE", "/api/forms/beta/responses"), "admin");
  });

  it("keeps a key limited to forms to those forms, the same whether the other form exists", async () => {
    const alpha = client(s.url, keys.alphaOnly);
    expect((await alpha("GET", "/api/forms/alpha/responses")).status).toBe(200);
    const other = await alpha("GET", "/api/forms/beta/responses");
    const missing = await alpha("GET", "/api/forms/no-such-form/responses");
    for (const res of [other, missing]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe("forbidden");
    }
    expect(other.body).toEqual({
      ...missing.body,
      error: missing.body.error.replace("no-such-form", "beta"),
    });
    const listed = await alpha("GET", "/api/forms");
    expect(listed.body.map((f: { slug: string }) => f.slug)).toEqual(["alpha"]);
    // nor can it make itself a wider key, or reach past its forms through the account
    expect((await alpha("POST", "/api/keys", { body: {} })).status).toBe(403);
    const created = await alpha("POST", "/api/forms", {
      body: { title: "g", slug: "gamma", fields: [{ id: "a", type: "text" }] },
    });
    expect(created.status).toBe(403);
    const put = await alpha("PUT", "/api/forms/gamma", {
      body: { title: "g", slug: "gamma", fields: [{ id: "a", type: "text" }] },
    });
    expect(put.status).toBe(403);
    expect((await api("GET", "/api/forms/gamma")).status).toBe(404);
  });

  it("names a scope for every registered REST route, and no route that is not registered", () => {
    const routes = ownerApp(s.ctx)
      .routes.filter((r) => r.path.startsWith("/api/"))
      .map((r) => `${r.method} ${r.path}`);
    const registered = new Set(routes);
    const unnamed = [...registered].filter((r) => !KEYLESS.has(r) && !(r in ROUTE_SCOPES));
    expect(unnamed).toEqual([]);
    expect(Object.keys(ROUTE_SCOPES).filter((r) => !registered.has(r))).toEqual([]);
  });

  it("enforces every entry of the REST table on a real request", async () => {
    // plain requests, no body: the answers are refusals or what a bare request gets
    const as = (key: string) => async (method: string, path: string) => {
      const res = await fetch(`${s.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}` },
      });
      const text = await res.text();
      return { status: res.status, body: text.startsWith("{") ? JSON.parse(text) : text };
    };
    const [read, write, alpha] = [as(keys.read), as(keys.write), as(keys.alphaOnly)];
    for (const [route, { scope, account }] of Object.entries(ROUTE_SCOPES)) {
      const [method, pattern] = route.split(" ") as [string, string];
      const path = pathOf(pattern, "alpha");
      const asRead = await read(method, path);
      if (scope === "read") expect(asRead.status, route).not.toBe(403);
      else forbidden(asRead, scope);
      if (scope === "admin") forbidden(await write(method, path), "admin");
      const asAlpha = await alpha(method, pathOf(pattern, "beta"));
      if (pattern.includes(":slug") || account) {
        expect(asAlpha.status, route).toBe(403);
        expect(asAlpha.body.code).toBe("forbidden");
      }
    }
  });

  it("names a scope for every MCP tool, and refuses each above the key's scope", async () => {
    expect(TOOLS.map((t) => t.name).filter((n) => !(n in TOOL_SCOPES))).toEqual([]);
    expect(Object.keys(TOOL_SCOPES).filter((n) => !TOOLS.some((t) => t.name === n))).toEqual([]);
    for (const [tool, scope] of Object.entries(TOOL_SCOPES)) {
      if (scope === "read") continue;
      const answer = await readAgent.call(tool, { slug: "alpha" });
      expect(answer.isError, tool).toBe(true);
      expect(answer.structuredContent.code, tool).toBe("forbidden");
      expect(answer.structuredContent.error).toContain(`"${scope}" scope`);
    }
  });

  it("does the same through MCP: read reads, write changes forms, a limited key its forms", async () => {
    const listed = await readAgent.call("list_responses", { slug: "alpha" });
    expect(listed.isError, JSON.stringify(listed.structuredContent)).toBeFalsy();
    expect(listed.structuredContent.total).toBe(1);
    const exported = await readAgent.call("export_responses", { slug: "alpha" });
    expect(exported.isError).toBeFalsy();

    const updated = await writeAgent.call("update_form", {
      slug: "alpha",
      patch: { title: "Alpha" },
    });
    expect(updated.isError, JSON.stringify(updated.structuredContent)).toBeFalsy();
    const webhook = await writeAgent.call("add_webhook", {
      slug: "alpha",
      url: "https://example.com/hook",
    });
    expect(webhook.structuredContent).toMatchObject({ code: "forbidden" });
    expect(webhook.structuredContent.error).toContain('"admin" scope');

    const beta = await alphaAgent.call("get_form", { slug: "beta" });
    expect(beta.isError).toBe(true);
    expect(beta.structuredContent.code).toBe("forbidden");
    const deployed = await alphaAgent.call("deploy_form", {
      path: "forms/@me/gamma.md",
      content: "---\ntitle: G\nslug: gamma\nfields:\n  - id: a\n    type: text\n---\n",
    });
    expect(deployed.structuredContent.code).toBe("forbidden");
    const forms = await alphaAgent.call("list_forms", {});
    expect(forms.structuredContent.forms.map((f: { slug: string }) => f.slug)).toEqual(["alpha"]);
    expect((await alphaAgent.call("get_form", { slug: "alpha" })).isError).toBeFalsy();
    // the whole account's audit log, as GET /api/audit: beta's reads are not an alpha key's
    // (review of 2026-11-28: list_audit answered every form's entries)
    const audit = await alphaAgent.call("list_audit", {});
    expect(audit.structuredContent.code, JSON.stringify(audit.structuredContent)).toBe("forbidden");
    expect(audit.structuredContent.error).toMatch(/^The audit log acts on the whole account/);
    expect((await api("GET", "/api/audit", { key: keys.alphaOnly })).status).toBe(403);
  });

  it("does the same through the CLI: keys create --scope read, and a refusal naming the scope", async () => {
    const env = (key: string) => ({ env: { FORMDOWN_URL: s.url, FORMDOWN_API_KEY: key } });
    const made = await runFormdown(
      ["keys", "create", "--name", "ci", "--scope", "read", "--form", "alpha"],
      env(s.apiKey),
    );
    expect(made.code, made.stderr).toBe(0);
    const key = JSON.parse(made.stdout.slice(0, made.stdout.lastIndexOf("}") + 1));
    expect(key).toMatchObject({ scopes: ["read"], forms: ["alpha"] });

    const exported = await runFormdown(["export", "alpha"], env(key.api_key));
    expect(exported.code, exported.stderr).toBe(0);
    expect(exported.stdout).toContain("hello alpha");
    const refused = await runFormdown(["keys", "list"], env(key.api_key));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('"admin" scope');
    const other = await runFormdown(["export", "beta"], env(key.api_key));
    expect(other.code).toBe(1);
    expect(other.stderr).toContain("limited to the forms alpha");

    const listed = await runFormdown(["keys", "list"], env(s.apiKey));
    expect(listed.stdout).toMatch(/ci\s+read\s+alpha/);
  });
});
