// A cold agent tries a live form (issue 47 item 10): try_form is the model's as well as the form
// app's, the server's instructions name it, its answers are test answers unless the owner says
// `test: false`; then the response is a real one, sent with the key, anti-bot left on.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { type Agent, connectAgent } from "../helpers/mcp-agents.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe.each(DB_KINDS)("try_form on a live form (%s)", (db) => {
  let s: TestServer;
  let agent: Agent;
  beforeAll(async () => {
    s = await startTestServer({ db });
    agent = await connectAgent("v1 SDK", s.url, s.apiKey);
    const api = client(s.url, s.apiKey);
    const created = await api("POST", "/api/forms", {
      body: {
        title: "Lunch",
        slug: "lunch",
        // anti-bot on, as a live form has it
        humanness: true,
        fields: [{ id: "dish", type: "radio", options: ["Pizza", "Sushi"], required: true }],
      },
    });
    expect(created.status).toBe(201);
  });
  afterAll(async () => {
    await agent?.close();
    await s?.close();
  });

  it("is listed for the model and named in the server's instructions", async () => {
    const tools = (await agent.listTools()) as { name: string; _meta?: any }[];
    const tryForm = tools.find((t) => t.name === "try_form");
    expect(tryForm).toBeDefined();
    expect(tryForm?._meta?.ui?.visibility ?? ["model", "app"]).toContain("model");
    const res = await fetch(`${s.url}/api/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
        authorization: `Bearer ${s.apiKey}`,
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-06-18",
          capabilities: {},
          clientInfo: { name: "cold", version: "1" },
        },
      }),
    });
    const { result } = (await res.json()) as { result: { instructions: string } };
    expect(result.instructions).toContain("try_form");
    expect(result.instructions).toContain("test: false");
  });

  it("stores a test answer by default, and a real response with test: false, no anti-bot token", async () => {
    const stats = async () =>
      (await agent.call("get_form_stats", { slug: "lunch" })).structuredContent.responses;
    const tried = await agent.call("try_form", { slug: "lunch", fields: { dish: "Pizza" } });
    expect(tried.isError, JSON.stringify(tried.structuredContent)).toBeFalsy();
    expect(tried.structuredContent).toMatchObject({ test: true });
    expect(await stats()).toBe(0);
    const real = await agent.call("try_form", {
      slug: "lunch",
      fields: { dish: "Sushi" },
      test: false,
    });
    expect(real.isError, JSON.stringify(real.structuredContent)).toBeFalsy();
    expect(real.structuredContent).toHaveProperty("response_id");
    expect(real.structuredContent).not.toHaveProperty("test");
    expect(await stats()).toBe(1);
    // the form itself was not changed to let it in
    const form = await agent.call("get_form", { slug: "lunch" });
    expect(form.structuredContent.humanness).toBe(true);
  });

  it("REST: the owner's key with test: false is a real response; without the key, anti-bot holds", async () => {
    const api = client(s.url, s.apiKey);
    const owner = await api("POST", "/api/forms/lunch/submit", {
      body: { fields: { dish: "Pizza" }, test: false },
    });
    expect(owner.status).toBe(201);
    expect(owner.body).not.toHaveProperty("test");
    const stranger = await api("POST", "/api/forms/lunch/submit", {
      key: null,
      body: { fields: { dish: "Pizza" }, test: false },
    });
    expect([stranger.status, stranger.body.code]).toEqual([422, "captcha_failed"]);
    const other = await api("POST", "/api/forms/lunch/submit", {
      key: await s.otherKey(),
      body: { fields: { dish: "Pizza" }, test: false },
    });
    expect(other.status).toBe(403);
    expect((await api("GET", "/api/forms/lunch/stats")).body.responses).toBe(2);
  });
});
