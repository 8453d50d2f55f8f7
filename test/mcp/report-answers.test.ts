// The report says each thing once (SPEC §18 "Answers that say what they did"): no repeated
// totals, a one-field report about that field alone, and the HTML page sent once over MCP
// with its summary kept. Through the real server and the real SDK clients.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT_KINDS, connectAgent } from "../helpers/mcp-agents.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let s: TestServer;
const slug = "said-once";
beforeAll(async () => {
  s = await startTestServer();
  const headers = { "content-type": "application/json", authorization: `Bearer ${s.apiKey}` };
  const created = await fetch(`${s.url}/api/forms`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      title: "Said once",
      slug,
      humanness: false,
      fields: [
        { id: "score", type: "nps", label: "How likely are you to recommend us?" },
        { id: "why", type: "textarea", label: "What could be better?" },
      ],
    }),
  });
  expect(created.status).toBe(201);
  for (let i = 0; i < 20; i++) {
    const res = await fetch(`${s.url}/api/forms/${slug}/submit`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ fields: { score: i % 11, why: `answer ${i}` } }),
    });
    expect(res.status).toBe(201);
  }
});
afterAll(() => s?.close());

const rawCall = async (args: object) => {
  const res = await fetch(`${s.url}/api/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${s.apiKey}` },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "get_response_report", arguments: args },
    }),
  });
  return res.text();
};

describe("the report says each thing once", () => {
  it("does not repeat the total when the period holds every response", async () => {
    const agent = await connectAgent("v2 SDK", s.url, s.apiKey);
    const all = (await agent.call("get_response_report", { slug, period: "all" }))
      .structuredContent;
    expect(all.markdown).toContain("**20** responses in all time · ");
    expect(all.markdown).not.toContain("in total");
    await agent.close();
  });

  it("a one-field report shows that field alone, drop-off included", async () => {
    const agent = await connectAgent("v1 SDK", s.url, s.apiKey);
    const one = (await agent.call("get_response_report", { slug, period: "all", field: "why" }))
      .structuredContent;
    expect(one.summary.fields.map((f: { id: string }) => f.id)).toEqual(["why"]);
    expect(one.markdown).toContain("What could be better?");
    expect(one.markdown).not.toContain("How likely are you to recommend us?");
    await agent.close();
  });

  it("sends the HTML report once over MCP, without images, keeping summary", async () => {
    const text = await rawCall({ slug, period: "all", format: "html" });
    console.log(`get_response_report html over MCP: ${Buffer.byteLength(text)} bytes`);
    expect(text.match(/<!doctype html>/g)).toHaveLength(1);
    const { result } = JSON.parse(text);
    expect(result.content.map((c: { type: string }) => c.type)).toEqual(["text", "text"]);
    expect(JSON.parse(result.content[0].text)).toEqual(result.structuredContent);
    expect(result.structuredContent).toMatchObject({
      period: "all",
      format: "html",
      summary: { responses: 20, fields: [{ id: "score" }, { id: "why" }] },
    });
    const html = result.content[1].text as string;
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).not.toContain("in total");
    expect(html.match(/20 responses in all time/g) ?? []).toHaveLength(0);
    // one field in html mode too
    const one = JSON.parse(await rawCall({ slug, period: "all", format: "html", field: "why" }));
    expect(one.result.content[1].text).not.toContain("How likely are you to recommend us?");
    expect(one.result.structuredContent.summary.fields).toHaveLength(1);
  });

  it.each(CLIENT_KINDS)("the html answer validates against the outputSchema (%s)", async (kind) => {
    const agent = await connectAgent(kind, s.url, s.apiKey);
    const page = await agent.call("get_response_report", { slug, period: "7d", format: "html" });
    expect(page.isError).toBeFalsy();
    expect(page.structuredContent.summary.responses).toBe(20);
    expect(page.content[1]!.text).toMatch(/^<!doctype html>/);
    expect(agent.failed).toEqual([]);
    await agent.close();
  });
});
