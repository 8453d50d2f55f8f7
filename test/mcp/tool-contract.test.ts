import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROTOCOL_VERSIONS } from "../../functions/mcp/protocol.ts";
import { connectAgent } from "../helpers/mcp-agents.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

let rpcId = 100;
const rpc = async (method: string, params: object = {}, headers: Record<string, string> = {}) => {
  const res = await fetch(`${s.url}/api/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${s.apiKey}`,
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++rpcId, method, params }),
  });
  return { status: res.status, body: (await res.json()) as any };
};
const callTool = async (name: string, args: unknown) =>
  (await rpc("tools/call", { name, arguments: args })).body.result as {
    isError?: boolean;
    structuredContent: any;
  };

describe("tools/list costs an agent little", () => {
  it("fits in 20,000 bytes (about 5k tokens) with every tool's input and output schema", async () => {
    const res = await fetch(`${s.url}/api/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${s.apiKey}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    const text = await res.text();
    const bytes = new TextEncoder().encode(text).length;
    console.log(`tools/list: ${bytes} bytes ≈ ${Math.round(bytes / 4)} tokens`);
    expect(bytes).toBeLessThanOrEqual(20_000);
    const { tools } = JSON.parse(text).result as { tools: any[] };
    const ajv = new Ajv2020({ strict: false });
    for (const tool of tools) {
      expect(tool.outputSchema?.type, tool.name).toBe("object");
      expect(() => ajv.compile(tool.outputSchema), tool.name).not.toThrow();
      expect(() => ajv.compile(tool.inputSchema), tool.name).not.toThrow();
      expect(tool.description.length, tool.name).toBeLessThanOrEqual(400);
    }
    // the portable form of a union (MCP Inspector --strict warns at `type: [..]`): one type per
    // branch, everywhere in every tool's input and output schema
    const unions: string[] = [];
    const walk = (node: unknown, path: string) => {
      if (Array.isArray(node)) {
        for (const [i, n] of node.entries()) walk(n, `${path}/${i}`);
      } else if (node && typeof node === "object")
        for (const [key, value] of Object.entries(node)) {
          if (key === "type" && Array.isArray(value)) unions.push(path);
          walk(value, `${path}/${key}`);
        }
    };
    for (const tool of tools) {
      walk(tool.inputSchema, `${tool.name} input`);
      walk(tool.outputSchema, `${tool.name} output`);
    }
    expect(unions).toEqual([]);
    const webhook = ajv.compile(tools.find((t) => t.name === "test_webhook").outputSchema);
    expect(webhook({ delivered: false, status: null, error: "unreachable" })).toBe(true);
    expect(webhook({ delivered: true, status: 204 })).toBe(true);
    expect(webhook({ delivered: true, status: "204" })).toBe(false);
    // the definition is described briefly and points at the complete schema
    const create = tools.find((t) => t.name === "create_form");
    expect(create.inputSchema.properties.definition.description).toContain(
      "formdown://schema/form",
    );
  });

  it("serves the complete schema at GET /api/form.schema.json and as a resource, the same document", async () => {
    const res = await fetch(`${s.url}/api/form.schema.json`);
    expect(res.status).toBe(200);
    const schema = (await res.json()) as any;
    expect(schema.$id).toBe("formdown://schema/form");
    expect(Object.keys(schema.properties)).toEqual(expect.arrayContaining(["title", "fields"]));
    const read = await rpc("resources/read", { uri: "formdown://schema/form" });
    expect(JSON.parse(read.body.result.contents[0].text)).toEqual(schema);
    const validate = new Ajv2020({ strict: false, validateFormats: false }).compile(schema);
    expect(validate({ title: "T", slug: "t", fields: [{ id: "a", type: "nps" }] })).toBe(true);
    expect(validate({ title: "T", slug: "t", fields: [{ id: "a", type: "slider" }] })).toBe(false);
    const openapi = (await (await fetch(`${s.url}/api/openapi.json`)).json()) as any;
    expect(openapi.paths["/api/form.schema.json"].get).toBeDefined();
  });
});

describe("argument errors say what was expected and what came, all at once", () => {
  it("never calls a present value of the wrong type missing", async () => {
    const res = await callTool("list_responses", { slug: 42, limit: "ten" });
    expect(res.isError).toBe(true);
    expect(res.structuredContent.code).toBe("validation_failed");
    expect(res.structuredContent.details).toEqual([
      { field: "slug", message: "expected a string, got a number" },
      { field: "limit", message: "expected a number, got a string" },
    ]);
    expect(res.structuredContent.error).toContain("limit: expected a number, got a string");
    expect(JSON.stringify(res.structuredContent)).not.toContain("is required");
    const patch = await callTool("update_form", { slug: "x", patch: "x" });
    expect(patch.structuredContent.details).toEqual([
      { field: "patch", message: "expected an object, got a string" },
    ]);
    const missing = await callTool("get_response", { slug: "x" });
    expect(missing.structuredContent.details).toEqual([
      { field: "response_id", message: "is required" },
    ]);
    const typo = await callTool("get_responses", { slug: "x", limt: 5 });
    expect(typo.structuredContent.details).toEqual([
      { field: "limt", message: "unknown argument; get_responses takes slug, limit" },
    ]);
    const big = await callTool("list_responses", { slug: "x", limit: 500 });
    expect(big.structuredContent.details).toEqual([
      { field: "limit", message: "must be at most 200" },
    ]);
  });

  it("points into the nested definition, every problem of it together", async () => {
    const res = await callTool("create_form", {
      definition: {
        title: "T",
        slug: "Bad Slug",
        fields: [
          { id: "a", type: "radio" },
          { id: "b", type: "slider" },
        ],
      },
    });
    expect(res.structuredContent.details).toEqual([
      { field: "definition.slug", message: expect.stringContaining("lowercase") },
      { field: "definition.fields[0].options", message: "is required" },
      {
        field: "definition.fields[1].type",
        message: expect.stringContaining('unknown type "slider"'),
      },
    ]);
  });

  it("reports every problem of a form file in one answer, not only the first round", async () => {
    const content = [
      "---",
      "title: Rounds",
      "fields:",
      "  - id: a",
      "    type: slider",
      "  - id: b",
      "    type: text",
      "    show_if: {field: nope, op: eq, value: x}",
      "---",
    ].join("\n");
    const res = await callTool("deploy_form", { slug: "rounds", content });
    expect(res.structuredContent.details).toEqual([
      {
        field: "fields[0].type",
        message: expect.stringContaining('line 5: unknown type "slider"'),
      },
      {
        field: "fields[1].show_if.field",
        message: 'line 8: refers to "nope", which is not a field of this form',
      },
    ]);
  });

  it("refuses a show_if value a yes_no can never answer, at its path (it used to validate and never match)", async () => {
    const res = await callTool("create_form", {
      definition: {
        title: "T",
        slug: "consent",
        fields: [
          { id: "ok", type: "yes_no" },
          { id: "email", type: "email", show_if: { field: "ok", op: "eq", value: true } },
        ],
      },
    });
    expect(res.structuredContent).toMatchObject({
      code: "validation_failed",
      details: [
        {
          field: "definition.fields[1].show_if.value",
          message: 'true can never be an answer of "ok" (yes_no): must be "yes" or "no"',
        },
      ],
    });
  });

  it("names tools, not HTTP verbs, and the REST answer keeps its own words", async () => {
    const definition = { title: "T", slug: "taken", fields: [{ id: "a", type: "text" }] };
    expect((await callTool("create_form", { definition })).isError).toBeFalsy();
    const again = await callTool("create_form", { definition });
    expect(again.structuredContent.code).toBe("conflict");
    expect(again.structuredContent.error).toContain("update_form");
    expect(again.structuredContent.error).not.toContain("PATCH");
    const rest = await fetch(`${s.url}/api/forms`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${s.apiKey}` },
      body: JSON.stringify(definition),
    });
    expect(((await rest.json()) as { error: string }).error).toContain("PATCH");
  });

  it("paths of add_field and update_form problems name the argument the agent sent", async () => {
    const added = await callTool("add_field", {
      slug: "taken",
      field: { id: "b", type: "text", show_if: { field: "nope", op: "eq", value: "x" } },
    });
    expect(added.structuredContent.details).toEqual([
      { field: "field.show_if.field", message: expect.stringContaining('"nope"') },
    ]);
    const patched = await callTool("update_form", { slug: "taken", patch: { title: 5 } });
    expect(patched.structuredContent.details).toEqual([
      { field: "patch.title", message: "expected a string, got a number" },
    ]);
  });
});

describe("one protocol-version list everywhere", () => {
  it("discovery, server card, server/discover, initialize and header errors agree", async () => {
    expect(PROTOCOL_VERSIONS).toContain("2026-07-28");
    const mcp = (await (await fetch(`${s.url}/.well-known/mcp.json`)).json()) as any;
    expect(mcp.protocolVersions).toEqual(PROTOCOL_VERSIONS);
    const card = (await (await fetch(`${s.url}/api/mcp/server-card`)).json()) as any;
    expect(card.remotes[0].supportedProtocolVersions).toEqual(PROTOCOL_VERSIONS);

    // server/discover through the 2026-07-28 envelope, as the v2 client sends it
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": { name: "probe", version: "1" },
    };
    const discover = await rpc(
      "server/discover",
      { _meta: meta },
      { "mcp-protocol-version": "2026-07-28", "mcp-method": "server/discover" },
    );
    expect(discover.body.result.supportedVersions).toEqual(PROTOCOL_VERSIONS);

    // initialize answers every 2025 revision in the list as asked; 2026-07-28 has no initialize
    // (its clients use server/discover), so asking for it there gets the newest 2025 revision
    const init = (version: string) =>
      rpc("initialize", {
        protocolVersion: version,
        capabilities: {},
        clientInfo: { name: "probe", version: "1" },
      });
    for (const version of PROTOCOL_VERSIONS.filter((v) => v < "2026"))
      expect((await init(version)).body.result.protocolVersion).toBe(version);
    const modern = (await init("2026-07-28")).body.result.protocolVersion;
    expect(PROTOCOL_VERSIONS).toContain(modern);

    const bad = await rpc("tools/list", {}, { "mcp-protocol-version": "2024-11-05" });
    const future = await rpc(
      "tools/list",
      { _meta: { ...meta, "io.modelcontextprotocol/protocolVersion": "2099-01-01" } },
      { "mcp-protocol-version": "2099-01-01", "mcp-method": "tools/list" },
    );
    for (const refused of [bad, future]) {
      expect(refused.status).toBe(400);
      const listed = /supported versions: ([^)]+)\)/.exec(refused.body.error.message)?.[1];
      expect(listed?.split(", ")).toEqual(PROTOCOL_VERSIONS);
    }
    expect(future.body.error.data.supported).toEqual(PROTOCOL_VERSIONS);
  });

  it("gives a 2026-07-28 client the 2026-07-28 revision", async () => {
    const client = new Client(
      { name: "v2", version: "1" },
      { versionNegotiation: { mode: "auto" } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${s.url}/api/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${s.apiKey}` } },
      }),
    );
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    await client.close();
  });
});

describe("unknown tools and missing keys", () => {
  it("answers an unknown tool with JSON-RPC -32602 naming the tools that exist", async () => {
    const res = await rpc("tools/call", { name: "delete_everything", arguments: {} });
    expect(res.body.error.code).toBe(-32602);
    expect(res.body.error.message).toContain("delete_everything");
    expect(res.body.error.message).toContain("create_form");
    expect(res.body.error.message).toContain("get_response_report");
    for (const kind of ["v1 SDK", "v2 SDK"] as const) {
      const agent = await connectAgent(kind, s.url, s.apiKey);
      await expect(agent.call("nope", {})).rejects.toMatchObject({ code: -32602 });
      await agent.close();
    }
  });

  it("sends WWW-Authenticate: Bearer with a 401", async () => {
    for (const authorization of [undefined, "Bearer fd_wrong"]) {
      const res = await fetch(`${s.url}/api/mcp`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          ...(authorization ? { authorization } : {}),
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer\b/);
    }
  });
});
