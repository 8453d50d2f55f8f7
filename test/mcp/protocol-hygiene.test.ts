// What peer suites found (the MCP conformance suite's dns-rebinding check, resources/templates/list),
// through the real server and both SDK clients.
import { request } from "node:http";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { Client as V1Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as V1Transport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

/** A raw POST, so the Host header can be set the way a rebinding browser sends it. */
function post(headers: Record<string, string>): Promise<{ status: number; body: any }> {
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} });
  const url = new URL(`${s.url}/api/mcp`);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          authorization: `Bearer ${s.apiKey}`,
          "content-length": Buffer.byteLength(body),
          ...headers,
        },
      },
      (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("Origin is validated on /api/mcp (DNS rebinding protection)", () => {
  it("answers 403 {error, code} to a foreign Origin, even with a valid key and a matching Host", async () => {
    const rebound = await post({ host: "evil.example.com", origin: "http://evil.example.com" });
    expect(rebound.status).toBe(403);
    expect(rebound.body).toMatchObject({ code: "forbidden" });
    const foreign = await post({ origin: "https://elsewhere.example" });
    expect(foreign.status).toBe(403);
  });

  it("keeps working for same-origin pages and for clients that send no Origin", async () => {
    const same = await post({ origin: new URL(s.url).origin });
    expect(same.status).toBe(200);
    expect(same.body.result.tools.length).toBeGreaterThan(10);
    const none = await post({});
    expect(none.status).toBe(200);
  });
});

describe("resources/templates/list offers the form files as formdown://forms/{slug}", () => {
  const template = expect.objectContaining({
    uriTemplate: "formdown://forms/{slug}",
    mimeType: "text/markdown",
  });

  beforeAll(async () => {
    const res = await fetch(`${s.url}/api/forms`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${s.apiKey}` },
      body: JSON.stringify({
        title: "Templated",
        slug: "templated",
        fields: [{ id: "a", type: "text" }],
      }),
    });
    expect(res.status).toBe(201);
  });

  it("lists and reads it with the v2 SDK client", async () => {
    const client = new Client(
      { name: "templates-v2", version: "1.0.0" },
      { versionNegotiation: { mode: "auto" } },
    );
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${s.url}/api/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${s.apiKey}` } },
      }),
    );
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([template]);
    const read = await client.readResource({ uri: "formdown://forms/templated" });
    expect((read.contents[0] as { text: string }).text).toContain("title: Templated");
    await client.close();
  });

  it("lists and reads it with the v1 SDK client", async () => {
    const client = new V1Client({ name: "templates-v1", version: "1.0.0" });
    await client.connect(
      new V1Transport(new URL(`${s.url}/api/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${s.apiKey}` } },
      }),
    );
    const { resourceTemplates } = await client.listResourceTemplates();
    expect(resourceTemplates).toEqual([template]);
    const read = await client.readResource({ uri: "formdown://forms/templated" });
    expect((read.contents[0] as { text: string }).text).toContain("title: Templated");
    await client.close();
  });
});
