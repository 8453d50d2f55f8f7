// The webhook and deletion tools over MCP (a bare JSON-RPC POST, SPEC §7): the same service
// functions as REST, with their annotations.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type Receiver, startReceiver } from "./receiver.ts";

let s: TestServer;
let receiver: Receiver;
let id = 0;

async function call(name: string, args: Record<string, unknown>, key = s.apiKey) {
  const res = await fetch(`${s.url}/api/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: ++id,
      method: "tools/call",
      params: { name, arguments: args },
    }),
  });
  return ((await res.json()) as { result: { isError?: boolean; structuredContent: any } }).result;
}

beforeAll(async () => {
  s = await startTestServer({ webhookSender: true });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await s?.close();
});

describe("webhook and deletion MCP tools", () => {
  it("declares the tools with the right hints", async () => {
    const res = await fetch(`${s.url}/api/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${s.apiKey}` },
      body: JSON.stringify({ jsonrpc: "2.0", id: 0, method: "tools/list", params: {} }),
    });
    const { tools } = (
      (await res.json()) as { result: { tools: { name: string; annotations: any }[] } }
    ).result;
    const hints = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    // readOnlyHint false is the protocol's default, said by leaving it out
    expect(hints.add_webhook).toEqual({ destructiveHint: false, openWorldHint: true });
    expect(hints.list_webhooks).toMatchObject({ readOnlyHint: true });
    for (const name of ["delete_webhook", "delete_response", "delete_form"]) {
      expect(hints[name], name).toMatchObject({ destructiveHint: true });
      expect(hints[name].readOnlyHint, name).toBeUndefined();
    }
  });

  it("adds, lists and deletes a webhook, deletes a response and a form", async () => {
    const api = client(s.url, s.apiKey);
    await api("POST", "/api/forms", {
      body: {
        title: "Agent",
        slug: "agent-hooks",
        humanness: false,
        fields: [{ id: "q", type: "text", label: "Q" }],
      },
    });
    const added = await call("add_webhook", {
      slug: "agent-hooks",
      url: receiver.url,
      events: ["response.created"],
    });
    expect(added.isError).toBeFalsy();
    expect(added.structuredContent).toMatchObject({
      url: receiver.url,
      events: ["response.created"],
      secret: expect.stringMatching(/^whsec_/),
    });
    receiver.secret = added.structuredContent.secret;
    const listed = await call("list_webhooks", { slug: "agent-hooks" });
    expect(listed.structuredContent.webhooks).toHaveLength(1);
    expect(listed.structuredContent.webhooks[0].secret).toBeUndefined();

    const sent = await api("POST", "/api/forms/agent-hooks/submit", {
      key: null,
      body: { fields: { q: "hi" } },
    });
    const [got] = await receiver.until((r) => r.length === 1);
    expect(got!.verified).toBe(true);
    expect(got!.json.data.response.id).toBe(sent.body.response_id);

    const other = await s.otherKey();
    expect(
      (
        await call(
          "delete_response",
          { slug: "agent-hooks", response_id: sent.body.response_id },
          other,
        )
      ).structuredContent.code,
    ).toBe("forbidden");
    expect(
      (await call("delete_response", { slug: "agent-hooks", response_id: sent.body.response_id }))
        .structuredContent,
    ).toEqual({
      deleted: true,
      response_id: sent.body.response_id,
    });
    expect(
      (await call("delete_response", { slug: "agent-hooks", response_id: sent.body.response_id }))
        .structuredContent.code,
    ).toBe("not_found");
    expect(
      (
        await call("delete_webhook", {
          slug: "agent-hooks",
          webhook_id: added.structuredContent.id,
        })
      ).isError,
    ).toBeFalsy();
    expect(
      (await call("list_webhooks", { slug: "agent-hooks" })).structuredContent.webhooks,
    ).toEqual([]);
    const bad = await call("add_webhook", { slug: "agent-hooks", url: "ftp://x" });
    expect([bad.isError, bad.structuredContent.code]).toEqual([true, "invalid_request"]);
    expect((await call("delete_form", { slug: "agent-hooks" })).structuredContent).toEqual({
      deleted: true,
      slug: "agent-hooks",
    });
    expect((await api("GET", "/api/forms/agent-hooks")).status).toBe(404);
  });
});
