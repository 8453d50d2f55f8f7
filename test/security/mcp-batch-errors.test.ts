// Ninth review, part B: an MCP error answer is at most 64 KB (SPEC §23), and the route cut one
// only when the answer was a single JSON-RPC object. A 2025-03-26 batch of 40 calls of an unknown
// tool (or prompt, or resource), each quoting its 24,000-character name, answered 984 KB.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_ERROR_BYTES } from "../../src/core/bounded-failure.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe("MCP batches of errors", { timeout: 120_000 }, () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ git: false });
  });
  afterAll(() => s?.close());

  const batch = async (messages: object[]) => {
    const res = await fetch(`${s.url}/api/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${s.apiKey}`,
        "mcp-protocol-version": "2025-03-26",
      },
      body: JSON.stringify(messages),
    });
    return { status: res.status, text: await res.text() };
  };
  const long = "x".repeat(24_000);

  it.each([
    ["unknown tools", (id: number) => ({ method: "tools/call", params: { name: long }, id })],
    ["unknown prompts", (id: number) => ({ method: "prompts/get", params: { name: long }, id })],
    [
      "unknown resources",
      (id: number) => ({
        method: "resources/read",
        params: { uri: `formdown://forms/${long}` },
        id,
      }),
    ],
  ])("answers 40 %s quoting their names in at most 64 KB, each error kept", async (_, make) => {
    const res = await batch(
      Array.from({ length: 40 }, (_, i) => ({ jsonrpc: "2.0", ...make(i + 1) })),
    );
    expect(res.status).toBe(200);
    expect(res.text.length).toBeLessThan(MAX_ERROR_BYTES);
    const answers = JSON.parse(res.text) as {
      id: number;
      error: { code: number; message: string };
    }[];
    expect(answers.map((a) => a.id)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    for (const a of answers) {
      expect(a.error.code).toBe(-32602);
      expect(a.error.message).toContain("xxx");
    }
  });

  it("counts a quoted control character as the six bytes JSON writes", async () => {
    const name = "\u0001".repeat(24_000);
    const res = await batch(
      Array.from({ length: 6 }, (_, i) => ({
        jsonrpc: "2.0",
        id: i + 1,
        method: "tools/call",
        params: { name },
      })),
    );
    expect(res.status).toBe(200);
    expect(new TextEncoder().encode(res.text).length).toBeLessThan(MAX_ERROR_BYTES);
    expect(JSON.parse(res.text)).toHaveLength(6);
  });
});
