// SPEC §23 / issue 41 item 15: a malformed MCP request is the client's fault. It is answered 4xx
// and writes at most one short line to the log — never a stack trace, so no client can fill the
// log. The log is captured as the server's console log writes it (compose.ts consoleLog).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "probe", version: "1" },
};
const MODERN = { "mcp-protocol-version": "2026-07-28" };
const call = (method: string, params: object = {}) =>
  JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });

/** Malformed requests: [what, headers, body]. */
const BAD: [string, Record<string, string>, string][] = [
  ["no Mcp-Method header", MODERN, call("tools/list", { _meta: META })],
  [
    "an Mcp-Method header naming another method",
    { ...MODERN, "mcp-method": "tools/call" },
    call("tools/list", { _meta: META }),
  ],
  ["no _meta envelope", { ...MODERN, "mcp-method": "tools/list" }, call("tools/list")],
  [
    "an envelope without capabilities",
    {},
    call("tools/list", { _meta: { [Object.keys(META)[0]!]: "2026-07-28" } }),
  ],
  ["an empty batch", {}, "[]"],
  ["a body that is not JSON", {}, "{"],
  ["a body of another type", { "content-type": "text/plain" }, call("tools/list")],
  ["an unknown revision", { "mcp-protocol-version": "1999-01-01" }, call("tools/list")],
  ["not JSON-RPC", {}, JSON.stringify({ hello: "world" })],
  // 2025-era (legacy transport)
  [
    "an initialize without params",
    {},
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize" }),
  ],
  ["a bare call of an unknown tool", {}, call("tools/call", { name: "nope", arguments: { x: 1 } })],
  [
    "a tool call with bad arguments",
    {},
    call("tools/call", { name: "get_form", arguments: { slug: 5 } }),
  ],
  ["a batch of junk", {}, JSON.stringify([1, "x", null, { jsonrpc: "2.0" }])],
  ["a response nobody asked for", {}, JSON.stringify({ jsonrpc: "2.0", id: 9, result: {} })],
];

describe.each(DB_KINDS)("malformed MCP requests in the log (%s)", (kind) => {
  let s: TestServer;
  const lines: string[] = [];
  beforeAll(async () => {
    s = await startTestServer({
      db: kind,
      log: {
        info: (m) => lines.push(...m.split("\n")),
        error: (m, e) =>
          lines.push(...`${m} ${e instanceof Error ? e.stack : (e ?? "")}`.split("\n")),
      },
    });
    // a well-formed modern request first: the SDK prints a note when its handler is built
    const discover = await post(
      { ...MODERN, "mcp-method": "server/discover" },
      call("server/discover", { _meta: META }),
    );
    expect(discover.status).toBe(200);
    // what the SDK itself prints goes to the log too
    for (const method of ["log", "info", "warn", "error"] as const)
      vi.spyOn(console, method).mockImplementation((...args: unknown[]) => {
        lines.push(
          ...args
            .map((a) => (a instanceof Error ? a.stack : String(a)))
            .join(" ")
            .split("\n"),
        );
      });
  });
  afterAll(async () => {
    vi.restoreAllMocks();
    await s?.close();
  });

  const post = async (headers: Record<string, string>, body: string) => {
    const res = await fetch(`${s.url}/api/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${s.apiKey}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        ...headers,
      },
      body,
    });
    await res.text();
    return res;
  };

  it.each(BAD)("%s: a 4xx and at most one short line, no stack trace", async (_, headers, body) => {
    lines.length = 0;
    const res = await post(headers, body);
    expect(res.status).toBeGreaterThanOrEqual(200);
    expect(res.status).toBeLessThan(500);
    expect(lines.length, lines.join("\n")).toBeLessThanOrEqual(1);
    for (const line of lines) {
      expect(line).not.toMatch(/^\s+at /);
      expect(line.length).toBeLessThanOrEqual(120);
    }
  });
});
