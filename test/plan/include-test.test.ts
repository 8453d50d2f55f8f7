// SPEC §16 "Drafts and test answers": a test answer (sent with the owner's key) is left out of
// stats, report and exports unless the read asks for it with include_test=true — over REST (CSV
// through COPY on Postgres, JSON and Markdown exports, Markdown and HTML reports) and over MCP.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { type Agent, connectAgent } from "../helpers/mcp-agents.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const definition = {
  title: "Launch",
  slug: "launch",
  humanness: false,
  fields: [
    { id: "pick", type: "radio", options: ["Yes", "No"] },
    { id: "note", type: "text" },
  ],
};

for (const kind of DB_KINDS) {
  describe(`test answers on every read (${kind})`, { timeout: 120_000 }, () => {
    let s: TestServer;
    let api: ReturnType<typeof client>;
    let agent: Agent;

    beforeAll(async () => {
      s = await startTestServer({ db: kind });
      api = client(s.url, s.apiKey);
      expect((await api("POST", "/api/forms", { body: definition })).status).toBe(201);
      for (const note of ["real one", "real two"]) {
        const fields = { pick: "Yes", note };
        const res = await api("POST", "/api/forms/launch/submit", { key: null, body: { fields } });
        expect(res.status).toBe(201);
      }
      // the owner's key makes it a test answer
      const test = await api("POST", "/api/forms/launch/submit", {
        body: { fields: { pick: "No", note: "tried it" } },
      });
      expect(test.body.test).toBe(true);
      agent = await connectAgent("v1 SDK", s.url, s.apiKey);
    }, 300_000);

    /** A text export (the api helper checks JSON answers only). */
    const text = async (path: string) =>
      (
        await fetch(`${s.url}/api/forms/launch/responses/export${path}`, {
          headers: { authorization: `Bearer ${s.apiKey}` },
        })
      ).text();

    afterAll(async () => {
      await agent?.close();
      await s?.close();
    });

    it("stats count it only with include_test=true (REST and get_form_stats)", async () => {
      const plain = await api("GET", "/api/forms/launch/stats");
      expect(plain.body).toMatchObject({ responses: 2, submissions: 2 });
      expect(plain.body.dropoff[0]).toEqual({ field: "pick", reached: 2, answered: 2 });
      const all = await api("GET", "/api/forms/launch/stats?include_test=true");
      expect(all.body).toMatchObject({ responses: 3, submissions: 3 });
      expect(all.body.dropoff[0]).toEqual({ field: "pick", reached: 3, answered: 3 });
      expect(all.body.sparkline_7d.at(-1).count).toBe(3);
      const mcp = await agent.call("get_form_stats", { slug: "launch" });
      expect(mcp.structuredContent.responses).toBe(2);
      const mcpAll = await agent.call("get_form_stats", { slug: "launch", include_test: true });
      expect(mcpAll.structuredContent.responses).toBe(3);
    });

    it("the report counts it only with include_test=true (Markdown, HTML, get_response_report)", async () => {
      const md = await api("GET", "/api/forms/launch/report?period=all");
      expect(md.body).toContain("real one");
      expect(md.body).not.toContain("tried it");
      const mdAll = await api("GET", "/api/forms/launch/report?period=all&include_test=true");
      expect(mdAll.body).toContain("tried it");
      const html = await api("GET", "/api/forms/launch/report?period=all&format=html");
      expect(html.body).not.toContain("tried it");
      const htmlAll = await api(
        "GET",
        "/api/forms/launch/report?period=all&format=html&include_test=true",
      );
      expect(htmlAll.body).toContain("tried it");
      const options = (r: { structuredContent: Record<string, any> }) =>
        r.structuredContent.summary.fields[0].options;
      const mcp = await agent.call("get_response_report", { slug: "launch", period: "all" });
      expect(mcp.structuredContent.summary.responses).toBe(2);
      expect(options(mcp)).toContainEqual(expect.objectContaining({ option: "No", count: 0 }));
      const mcpAll = await agent.call("get_response_report", {
        slug: "launch",
        period: "all",
        include_test: true,
      });
      expect(mcpAll.structuredContent.summary.responses).toBe(3);
      expect(options(mcpAll)).toContainEqual(expect.objectContaining({ option: "No", count: 1 }));
    });

    it("exports hold it only with include_test=true, flagged (CSV, JSON, Markdown, export_responses)", async () => {
      const csv = await text("?format=csv");
      const rows = csv.trim().split(/\r?\n/);
      expect(rows[0]).toBe("id,submitted_at,pick,note");
      expect(rows).toHaveLength(3);
      expect(csv).not.toContain("tried it");
      const all = (await text("?include_test=true")).trim().split(/\r?\n/);
      expect(all[0]).toBe("id,submitted_at,pick,note,test");
      expect(all).toHaveLength(4);
      expect(all.filter((r) => r.endsWith(",No,tried it,true"))).toHaveLength(1);
      expect(all.filter((r) => r.endsWith(",Yes,real one,"))).toHaveLength(1);
      const json = await api("GET", "/api/forms/launch/responses/export?format=json");
      expect(json.body).toHaveLength(2);
      expect(json.body.some((r: { test?: true }) => r.test)).toBe(false);
      const jsonAll = await api(
        "GET",
        "/api/forms/launch/responses/export?format=json&include_test=true",
      );
      expect(jsonAll.body).toHaveLength(3);
      const flagged = jsonAll.body.filter((r: { test?: true }) => r.test);
      expect(flagged.map((r: { payload: unknown }) => r.payload)).toEqual([
        { pick: "No", note: "tried it" },
      ]);
      expect(await text("?format=markdown")).not.toContain("tried it");
      expect(await text("?format=markdown&include_test=true")).toMatch(
        /\| No \| tried it \| true \|/,
      );
      const mcp = await agent.call("export_responses", { slug: "launch" });
      expect(mcp.structuredContent.content).not.toContain("tried it");
      const mcpAll = await agent.call("export_responses", { slug: "launch", include_test: true });
      expect(mcpAll.structuredContent.content).toContain("tried it");
      const list = await agent.call("list_responses", { slug: "launch", include_test: true });
      expect(list.structuredContent.total).toBe(3);
    });

    it("answers 400 invalid_param for an include_test other than true or false", async () => {
      for (const path of ["stats", "report", "responses/export"]) {
        const res = await api("GET", `/api/forms/launch/${path}?include_test=yes`);
        expect(res.status, path).toBe(400);
        expect(res.body).toMatchObject({ code: "invalid_param" });
      }
      const off = await api("GET", "/api/forms/launch/stats?include_test=false");
      expect(off.body.responses).toBe(2);
    });
  });
}
