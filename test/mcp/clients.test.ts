import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOOLS } from "../../functions/mcp/registry.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const run = promisify(execFile);
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

const auth = () => ({ requestInit: { headers: { Authorization: `Bearer ${s.apiKey}` } } });
const rpc = (body: object, headers: Record<string, string> = {}) =>
  fetch(`${s.url}/api/mcp`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      authorization: `Bearer ${s.apiKey}`,
      ...headers,
    },
    body: JSON.stringify(body),
  });

describe("MCP clients of every era", () => {
  it("serves a 2026-07-28 client (v2 SDK, version negotiation auto)", async () => {
    const client = new Client(
      { name: "test-v2", version: "1.0.0" },
      { versionNegotiation: { mode: "auto" } },
    );
    await client.connect(new StreamableHTTPClientTransport(new URL(`${s.url}/api/mcp`), auth()));
    expect(client.getProtocolEra()).toBe("modern");
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const { tools } = await client.listTools();
    expect(tools).toHaveLength(TOOLS.length);
    const res = await client.callTool({ name: "list_forms", arguments: {} });
    expect(res.structuredContent).toEqual({ forms: [] });
    await client.close();
  });

  it("serves a 2025-revision client (v1 SDK, initialize handshake)", async () => {
    const client = new V1Client({ name: "test-v1", version: "1.0.0" });
    await client.connect(new V1Transport(new URL(`${s.url}/api/mcp`), auth()));
    const { tools } = await client.listTools();
    // readOnlyHint false is the protocol's default: left out
    expect(tools.find((t) => t.name === "deploy_form")?.annotations).toEqual({
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    const markdown = "---\ntitle: T\nslug: t\nfields:\n  - id: a\n    type: text\n---\n";
    const res = await client.callTool({ name: "validate_form", arguments: { markdown } });
    expect(res.structuredContent).toMatchObject({ valid: true, form: { slug: "t" } });
    await client.close();
  });

  it("serves the MCP Inspector CLI", async () => {
    const { stdout } = await run(
      "npx",
      [
        "--no-install",
        "@modelcontextprotocol/inspector",
        "--cli",
        `${s.url}/api/mcp`,
        "--transport",
        "http",
        "--header",
        `Authorization: Bearer ${s.apiKey}`,
        "--method",
        "tools/list",
      ],
      { timeout: 60_000 },
    );
    const names = (JSON.parse(stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
    expect(names).toContain("export_responses");
  });

  it("answers a bare JSON-RPC POST (only Content-Type) with plain JSON", async () => {
    const list = await rpc({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
    expect(list.status).toBe(200);
    expect(list.headers.get("content-type")).toContain("application/json");
    const json = (await list.json()) as {
      result: { tools: { name: string; inputSchema: object }[] };
    };
    expect(json.result.tools.map((t) => t.name)).toContain("get_responses");
    const call = await rpc({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "list_forms", arguments: {} },
    });
    expect(
      ((await call.json()) as { result: { structuredContent: object } }).result.structuredContent,
    ).toEqual({ forms: [] });
    const ajv = new Ajv2020({ strict: false });
    for (const tool of json.result.tools) expect(() => ajv.compile(tool.inputSchema)).not.toThrow();
  });

  it("returns bad arguments as isError with {error, code: validation_failed}", async () => {
    const call = await rpc({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "get_response", arguments: { slug: 5 } },
    });
    const { result } = (await call.json()) as {
      result: {
        isError: boolean;
        structuredContent: { code: string; details: { field: string }[] };
      };
    };
    expect(result.isError).toBe(true);
    expect(result.structuredContent.code).toBe("validation_failed");
    expect(result.structuredContent.details.map((d) => d.field)).toEqual(
      expect.arrayContaining(["slug", "response_id"]),
    );
    const missing = await rpc({
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: { name: "get_form", arguments: { slug: "nope" } },
    });
    const body = (await missing.json()) as { result: { structuredContent: { code: string } } };
    expect(body.result.structuredContent.code).toBe("not_found");
    // text the database cannot store is the caller's error, not a failure of ours
    for (const [id, markdown] of [
      [5, "---\ntitle: A\u0000B\nslug: nul-mcp\nfields:\n  - id: a\n    type: text\n---\n"],
      [6, "---\ntitle: A\ud800B\nslug: lone-mcp\nfields:\n  - id: a\n    type: text\n---\n"],
    ] as const) {
      const refused = await rpc({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "deploy_form", arguments: { markdown } },
      });
      const answer = (await refused.json()) as {
        result: { isError: boolean; structuredContent: { code: string } };
      };
      expect(answer.result.isError).toBe(true);
      expect(answer.result.structuredContent.code).toBe("invalid_request");
    }
  });

  it("needs a key (401 {error, code}) and answers GET/DELETE with 405", async () => {
    const res = await fetch(`${s.url}/api/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { code: string }).code).toBe("unauthorized");
    expect((await fetch(`${s.url}/api/mcp`)).status).toBe(405);
    expect((await fetch(`${s.url}/api/mcp`, { method: "DELETE" })).status).toBe(405);
  });

  it("publishes discovery documents from the same tool registry", async () => {
    const mcp = (await (await fetch(`${s.url}/.well-known/mcp.json`)).json()) as {
      endpoint: string;
      tools: { name: string }[];
    };
    expect(mcp.endpoint).toBe(`${s.url}/api/mcp`);
    expect(mcp.tools).toHaveLength(TOOLS.length);
    const card = await fetch(`${s.url}/api/mcp/server-card`);
    expect(card.headers.get("content-type")).toBe("application/mcp-server-card+json");
    expect(card.headers.get("access-control-allow-origin")).toBe("*");
    const catalog = (await (await fetch(`${s.url}/.well-known/mcp/catalog.json`)).json()) as {
      entries: { url: string }[];
    };
    expect(catalog.entries[0]!.url).toBe(`${s.url}/api/mcp/server-card`);
  });
});
