// Review of 2026-11-28 (docs/security-review.md): two inputs that passed the bounds meant for them.
// An MCP message that opened 65 nested arrays before 90,000 keys went to the SDK uncounted (the
// count stopped at the depth, and a deep message was left to the SDK): 2.2 s of one core, the
// stall the key bound was made for. An invite's address was matched by a pattern whose
// backtracking is quadratic in a run of dots, at any length: 60,000 characters held the event
// loop 4 s, a 1 MB body minutes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe.each(DB_KINDS)("inputs past their bounds (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
    const made = await api("POST", "/api/forms", {
      body: { title: "Inv", slug: "inv", humanness: false, fields: [{ id: "a", type: "text" }] },
    });
    expect(made.status).toBe(201);
  });
  afterAll(() => s?.close());

  const mcp = async (body: string) => {
    const res = await fetch(`${s.url}/api/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${s.apiKey}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body,
    });
    return { status: res.status, json: await res.json() };
  };
  const keys = Array.from({ length: 90_000 }, (_, i) => `"k${i}":1`).join(",");
  const call = (meta: string) =>
    `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"_meta":${meta},"name":"whoami","arguments":{}}}`;

  it("refuses an MCP message nested deeper than 64 levels, keys after the depth included", async () => {
    const deep = `${"[".repeat(65)}${"]".repeat(65)}`;
    const res = await mcp(call(`{"d":${deep},${keys}}`));
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ jsonrpc: "2.0", id: 1, error: { code: -32602 } });
    expect(res.json.error.message).toBe(
      "The request nests deeper than 64 levels; no tool takes that.",
    );
    // the same keys without the depth were refused already
    const flat = await mcp(call(`{${keys}}`));
    expect(flat.json.error.message).toMatch(/names 90,00\d keys; a message takes at most 50,000/);
    // 64 levels in all (the message, params and _meta are three) are a message like any other
    const fits = await mcp(call(`{"d":${"[".repeat(61)}${"]".repeat(61)}}`));
    expect(fits.json.result.structuredContent).toMatchObject({ handler: "me" });
  });

  it("refuses an invite address longer than 254 characters before matching it", async () => {
    const long = await api("POST", "/api/forms/inv/invites", {
      body: { emails: [`a@${"b".repeat(300)}.com`] },
    });
    expect([long.status, long.body.code]).toEqual([400, "validation_failed"]);
    const dots = await api("POST", "/api/forms/inv/invites", {
      body: { emails: [`a@${".".repeat(500_000)}@`] },
    });
    expect([dots.status, dots.body.details]).toEqual([
      400,
      [{ field: "emails", message: "must be a list of email addresses" }],
    ]);
    const fine = await api("POST", "/api/forms/inv/invites", {
      body: { emails: [`a@${"b".repeat(240)}.com`] },
    });
    expect(fine.status).toBe(201);
    expect((await s.ctx.db.query("select token from invites")).length).toBe(1);
  });
});
