// The where filter language end to end (SPEC §18, issue 26): one NPS survey whose score field was
// renamed through `formerly` after two answers, read through every surface with
// `recommend lte 6` — the detractors, the old answers among them — and erased by a filter.
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { connectAgent } from "../helpers/mcp-agents.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const fix = { id: "fix", type: "textarea", label: "What should we fix?" };
const plan = { id: "plan", type: "radio", label: "Plan", options: ["Free", "Pro"] };
const v1 = {
  title: "Pulse",
  slug: "pulse",
  humanness: false,
  languages: ["de"],
  translations: { de: { content: "---\ntitle: Puls\n---\n" } },
  fields: [{ id: "score", type: "nps", label: "Recommend us?" }, fix, plan],
};
const renamed = [
  { id: "recommend", type: "nps", label: "Recommend us?", formerly: ["score"] },
  fix,
  plan,
];
// before the rename (under `score`), then after; lang: the page the respondent read
const BEFORE = [
  { score: 2, fix: "Billing is broken", plan: "Pro" },
  { score: 9, fix: "love it", plan: "Free" },
];
const AFTER: [Record<string, unknown>, string?][] = [
  [{ recommend: 5, fix: "slow pages" }],
  [{ recommend: 6, plan: "Pro" }],
  [{ recommend: 10, fix: "great" }],
  [{ recommend: 8 }],
  [{ recommend: 0, fix: "too pricey" }, "de"],
  [{ recommend: 7, fix: "ok" }],
];
const DETRACTOR_FIXES = ["Billing is broken", "slow pages", "too pricey"];
const detractors = encodeURIComponent(
  JSON.stringify([{ field: "recommend", op: "lte", value: 6 }]),
);
const q = (where: unknown) => encodeURIComponent(JSON.stringify(where));

describe.each(DB_KINDS)("where on every read (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  const submit = async (fields: Record<string, unknown>, lang?: string) =>
    expect(
      (
        await api("POST", "/api/forms/pulse/submit", {
          key: null,
          body: { fields, ...(lang ? { lang } : {}) },
        })
      ).status,
    ).toBe(201);
  const get = async (path: string) => {
    const res = await fetch(`${s.url}${path}`, {
      headers: { authorization: `Bearer ${s.apiKey}` },
    });
    return { status: res.status, text: await res.text() };
  };

  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
    // PUT takes the translations with the form (SPEC §20)
    const created = await api("PUT", "/api/forms/pulse", { body: v1 });
    expect([200, 201], JSON.stringify(created.body)).toContain(created.status);
    for (const fields of BEFORE) await submit(fields);
    const patch = await api("PATCH", "/api/forms/pulse", { body: { fields: renamed } });
    expect(patch.status).toBe(200);
    for (const [fields, lang] of AFTER) await submit(fields, lang);
  });
  afterAll(() => s?.close());

  it("lists exactly the detractors, the answers stored under the old id among them", async () => {
    const list = await api("GET", `/api/forms/pulse/responses?where=${detractors}`);
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(4);
    const scores = list.body.responses.map(
      (r: { payload: Record<string, number> }) => r.payload.recommend ?? r.payload.score,
    );
    expect(scores.sort()).toEqual([0, 2, 5, 6]);
  });

  it("exports the same four rows as CSV, the old answer under the live column", async () => {
    const { status, text } = await get(
      `/api/forms/pulse/responses/export?format=csv&where=${detractors}`,
    );
    expect(status).toBe(200);
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.recommend).sort()).toEqual(["0", "2", "5", "6"]);
    expect(
      rows
        .map((r) => r.fix)
        .filter(Boolean)
        .sort(),
    ).toEqual(DETRACTOR_FIXES);
  });

  it("counts the segment in stats, and says it is a segment in the report's heading", async () => {
    const stats = await api("GET", `/api/forms/pulse/stats?where=${detractors}`);
    expect(stats.body).toMatchObject({ responses: 4 });
    const md = await get(`/api/forms/pulse/report?period=all&where=${detractors}`);
    expect(md.text.split("\n")[0]).toBe(
      "# Pulse — responses report — 4 responses where recommend ≤ 6",
    );
    const html = await get(`/api/forms/pulse/report?period=all&format=html&where=${detractors}`);
    expect(html.text).toContain(
      "<h1>Pulse — responses report — 4 responses where recommend ≤ 6</h1>",
    );
  });

  it("filters on the language the respondent read (none recorded: the form's own)", async () => {
    const de = await api(
      "GET",
      `/api/forms/pulse/responses?where=${q([{ field: "lang", op: "eq", value: "de" }])}`,
    );
    expect(de.body.total).toBe(1);
    expect(de.body.responses[0].payload.recommend).toBe(0);
    const en = await api(
      "GET",
      `/api/forms/pulse/responses?where=${q([{ field: "lang", op: "eq", value: "en" }])}`,
    );
    expect(en.body.total).toBe(7);
  });

  it("answers a bad filter with 400 invalid_request naming the condition, on every read", async () => {
    const bad = q([
      { field: "recommend", op: "lte", value: 6 },
      { field: "recommend", op: "contains", value: "x" },
    ]);
    for (const path of [
      `/api/forms/pulse/responses?where=${bad}`,
      `/api/forms/pulse/stats?where=${bad}`,
      `/api/forms/pulse/report?where=${bad}`,
      `/api/forms/pulse/responses/export?format=json&where=${bad}`,
    ]) {
      const res = await api("GET", path);
      expect(res.status, path).toBe(400);
      expect(res.body, path).toMatchObject({ code: "invalid_request" });
      expect(res.body.error).toMatch(/^where\[1\]: recommend \(nps\) cannot take contains/);
    }
    const unknown = await api(
      "GET",
      `/api/forms/pulse/responses?where=${q([{ field: "nope", op: "answered" }])}`,
    );
    expect(unknown.body.error).toMatch(/^where\[0\]: "nope" is not a field of this form/);
    const notJson = await api("GET", "/api/forms/pulse/responses?where=recommend%3C%3D6");
    expect(notJson.status).toBe(400);
    expect(notJson.body.code).toBe("invalid_request");
  });

  it("gives an agent the detractors' score and comments in one MCP call, and erases by a filter", async () => {
    const agent = await connectAgent("v2 SDK", s.url, s.apiKey);
    const where = [{ field: "recommend", op: "lte", value: 6 }];
    const report = await agent.call("get_response_report", { slug: "pulse", period: "all", where });
    expect(report.isError).toBeFalsy();
    const summary = report.structuredContent.summary;
    expect(summary.responses).toBe(4);
    const nps = summary.fields.find((f: { id: string }) => f.id === "recommend");
    expect(nps.nps).toMatchObject({ score: -100, detractors: 4 });
    const comments = summary.fields.find((f: { id: string }) => f.id === "fix");
    expect([...comments.answers].sort()).toEqual(DETRACTOR_FIXES);
    // each comment beside its respondent's score (and plan): the old answers' under the live id
    const beside = Object.fromEntries(
      comments.answers.map((a: string, i: number) => [a, comments.answered_with[i]]),
    );
    expect(beside).toEqual({
      "Billing is broken": { recommend: 2, plan: "Pro" },
      "slow pages": { recommend: 5 },
      "too pricey": { recommend: 0 },
    });
    expect(report.structuredContent.markdown).toContain("4 responses where recommend ≤ 6");
    expect(report.structuredContent.markdown).toMatch(/> slow pages\n> — recommend: 5/);

    const listed = await agent.call("list_responses", { slug: "pulse", where });
    expect(listed.structuredContent.total).toBe(4);
    const bad = await agent.call("list_responses", {
      slug: "pulse",
      where: [{ field: "x", op: "eq", value: 1 }],
    });
    expect(bad.isError).toBe(true);
    expect(bad.structuredContent).toMatchObject({ code: "invalid_request" });

    const gone = await agent.call("delete_responses", {
      slug: "pulse",
      where: [{ field: "fix", op: "contains", value: "billing" }],
    });
    expect(gone.structuredContent).toEqual({ deleted: 1 });
    const left = await api("GET", "/api/forms/pulse/responses");
    expect(left.body.total).toBe(7);
    expect(JSON.stringify(left.body)).not.toContain("Billing is broken");
    await agent.close();
  });

  it("erases the matching responses over REST too: DELETE …/responses?where answers {deleted}", async () => {
    const where = q([{ field: "plan", op: "eq", value: "pro" }]);
    const res = await api("DELETE", `/api/forms/pulse/responses?where=${where}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deleted: 1 });
    const again = await api("DELETE", `/api/forms/pulse/responses?where=${where}`);
    expect(again.body).toEqual({ deleted: 0 });
  });
});
