import { readFile } from "node:fs/promises";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cellText, exportColumns } from "../../src/core/csv.ts";
import { escapeCell } from "../../src/core/markdown.ts";
import { formSchema } from "../../src/core/schema.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const tricky = {
  title: "Tricky",
  slug: "tricky",
  humanness: false,
  fields: [
    { id: "text", type: "textarea", label: "Text" },
    {
      id: "pick",
      type: "checkbox",
      label: "Pick",
      options: ["a, b", 'say "hi"', "ünï", "\\{x}\ttab", "@at", "ctl\u0001x"],
    },
    {
      id: "grid",
      type: "matrix",
      label: "Grid",
      rows: [
        { id: "r1", label: "R1" },
        { id: "r2", label: "R2" },
      ],
      columns: ["x", "y"],
    },
    { id: "nps", type: "nps", label: "NPS" },
    { id: "order", type: "ranking", label: "Order", options: ["p", "q"] },
  ],
};
const columns = exportColumns(formSchema.parse(tricky).fields);
const answers = [
  {
    text: "=cmd|' /C calc'!A0",
    pick: ["a, b", "ctl\u0001x"],
    grid: { r1: "x" },
    nps: 0,
    order: ["q", "p"],
  },
  {
    text: 'line one\nline "two", with | pipe',
    pick: ['say "hi"', "ünï", "\\{x}\ttab"],
    grid: { r1: "y", r2: "x" },
    nps: 10,
    order: ["p", "q"],
  },
  { text: "+1 plus", pick: ["@at", "a, b"], nps: 7 },
];

describe.each(DB_KINDS)("exports and stats (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
    await api("POST", "/api/forms", { body: tricky });
    for (const fields of answers)
      expect(
        (await api("POST", "/api/forms/tricky/submit", { key: null, body: { fields } })).status,
      ).toBe(201);
  });
  afterAll(() => s?.close());

  const download = async (path: string) => {
    const res = await fetch(`${s.url}${path}`, {
      headers: { authorization: `Bearer ${s.apiKey}` },
    });
    return { res, text: await res.text() };
  };

  it("streams a CSV that parses back to the API's records, with formulas neutralised", async () => {
    const { res, text } = await download("/api/forms/tricky/responses/export?format=csv");
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(
      'attachment; filename="tricky-responses.csv"',
    );
    const rows = parse(text, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!)).toEqual([
      "id",
      "submitted_at",
      "text",
      "pick",
      "grid.r1",
      "grid.r2",
      "nps",
      "order",
    ]);
    const records = (await api("GET", "/api/forms/tricky/responses")).body.responses;
    expect(rows.map((r) => r.id)).toEqual(records.map((r: { id: string }) => r.id));
    expect(rows.map((r) => r.submitted_at)).toEqual(
      records.map((r: { submitted_at: string }) => r.submitted_at),
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    const first = byId.get(records[2].id)!;
    expect(first).toMatchObject({
      text: "'=cmd|' /C calc'!A0",
      pick: "a, b; ctl\u0001x",
      "grid.r1": "x",
      "grid.r2": "",
      nps: "0",
      order: "q; p",
    });
    const second = byId.get(records[1].id)!;
    expect(second).toMatchObject({
      text: 'line one\nline "two", with | pipe',
      pick: 'say "hi"; ünï; \\{x}\ttab',
      nps: "10",
    });
    expect(byId.get(records[0].id)).toMatchObject({ text: "'+1 plus", pick: "'@at; a, b" });
  });

  it("exports JSON equal to the records, and a Markdown table with pipes and breaks escaped", async () => {
    const json = await download("/api/forms/tricky/submissions/export?format=json");
    expect(json.res.headers.get("content-disposition")).toContain("tricky-responses.json");
    const records = (await api("GET", "/api/forms/tricky/responses")).body.responses;
    expect(JSON.parse(json.text)).toEqual(records);
    const md = await download("/api/forms/tricky/responses/export?format=markdown");
    expect(md.res.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const lines = md.text.trim().split("\n");
    expect(lines).toHaveLength(2 + 3);
    expect(lines.every((l) => l.startsWith("| ") && l.endsWith(" |"))).toBe(true);
    expect(md.text).toContain('line one<br>line "two", with \\| pipe');
    // every line as the page's own escaping writes it (on Postgres, from COPY's fields): the
    // control character shown as U+FFFD, the tab kept, the pipe and underscores escaped
    const expected = records.map((r: { id: string; submitted_at: string; payload: never }) => {
      const cells = [r.id, r.submitted_at, ...columns.map((c) => c.read(r.payload))];
      return `| ${cells.map((c) => escapeCell(cellText(c))).join(" | ")} |`;
    });
    expect(lines.slice(2)).toEqual(expected);
    expect(md.text).toContain("ctl\ufffdx");
    const bad = await api("GET", "/api/forms/tricky/responses/export?format=pdf");
    expect([bad.status, bad.body.code]).toEqual([400, "invalid_param"]);
  });

  it("filters exports by since/until like the reads", async () => {
    const records = (await api("GET", "/api/forms/tricky/responses")).body.responses;
    const { text } = await download(
      `/api/forms/tricky/responses/export?format=json&since=${encodeURIComponent(records[0].submitted_at)}`,
    );
    expect(JSON.parse(text).map((r: { id: string }) => r.id)).toEqual([records[0].id]);
  });

  it("computes stats: sparkline of 7 UTC days, change against the 7 before, completion", async () => {
    await api("POST", "/api/forms", {
      body: {
        title: "Stats",
        slug: "stats",
        humanness: false,
        fields: [{ id: "a", type: "text" }],
      },
    });
    for (let i = 0; i < 8; i++)
      await api("POST", "/api/forms/stats/submit", {
        key: null,
        body: { fields: { a: String(i) } },
      });
    for (let i = 0; i < 8; i++)
      await api("POST", "/api/forms/stats/events", {
        key: null,
        body: { type: i < 4 ? "view" : "start" },
      });
    const day = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();
    const ids = (await api("GET", "/api/forms/stats/responses")).body.responses.map(
      (r: { id: string }) => r.id,
    );
    // two today, one 2 days ago, one 6 days ago, two 9 days ago (the previous period), one
    // before both periods and one stamped in the future (a skewed clock): counted, not charted
    const ages = [0, 0, 2, 6, 9, 9, 20, -2];
    for (const [i, id] of ids.entries())
      await s.ctx.db.query("update responses set submitted_at = $2 where id = $1", [
        id,
        day(ages[i]!),
      ]);
    const stats = (await api("GET", "/api/forms/stats/stats")).body;
    expect(stats).toMatchObject({
      views: 4,
      // 4 start beacons, 8 responses: a response without a beacon counts as a start
      starts: 8,
      responses: 8,
      submissions: 8,
      completion_rate: 1,
    });
    expect(stats.sparkline_7d).toHaveLength(7);
    expect(stats.sparkline_7d.at(-1)).toEqual({
      date: new Date().toISOString().slice(0, 10),
      count: 2,
    });
    expect(stats.sparkline_7d.map((d: { count: number }) => d.count)).toEqual([
      1, 0, 0, 0, 1, 0, 2,
    ]);
    expect(stats.change).toEqual({ period: "7d", current: 4, previous: 2, delta: 2, percent: 100 });
  });

  it("reports the example survey with every section a PM expects", async () => {
    const markdown = await readFile(
      new URL("../fixtures/examples/product-survey.md", import.meta.url),
      "utf8",
    );
    await api("PUT", "/api/forms/product-survey", {
      body: { markdown: markdown.replace("type: survey", "type: survey\nhumanness: false") },
    });
    const base = {
      satisfaction: 4,
      ease: 5,
      features: ["Forms", "Quizzes"],
      aspects: { speed: "Good", design: "Excellent" },
      priorities: ["Price", "Support", "Reliability", "Integrations"],
      role: "Product",
    };
    for (const [i, nps] of [10, 9, 8, 3, 10].entries()) {
      const fields = {
        ...base,
        recommend: nps,
        ...(nps <= 6 ? { disappointed: "Needs *more* | exports" } : {}),
        ...(i === 0 ? { quiz_feedback: "More question types" } : {}),
      };
      expect(
        (await api("POST", "/api/forms/product-survey/submit", { key: null, body: { fields } }))
          .status,
      ).toBe(201);
    }
    const report = await api("GET", "/api/forms/product-survey/report?period=30d");
    expect(report.headers.get("content-type")).toBe("text/markdown; charset=utf-8");
    const text = report.body as string;
    expect(text).toContain("# How are we doing? — responses report");
    expect(text).toContain("**5** responses in the last 30 days");
    expect(text).toMatch(
      /NPS \*\*40\*\* — promoters 3 \(60%\), passives 1 \(20%\), detractors 1 \(20%\)/,
    );
    expect(text).toContain("| Forms | 5 | 100% |");
    expect(text).toMatch(/\| Option \| Average rank \|[\s\S]*\| Price \| 1 \|/);
    expect(text).toContain("| Speed | 0 | 0 | 5 | 0 |");
    expect(text).toContain("Needs \\*more\\* \\| exports");
    expect(text).toContain("## Drop-off by field");
    expect((await api("GET", "/api/forms/product-survey/report?period=1y")).body.code).toBe(
      "invalid_param",
    );
  });

  it("reports quiz score buckets and only the five newest text answers", async () => {
    const markdown = await readFile(
      new URL("../fixtures/examples/quiz.md", import.meta.url),
      "utf8",
    );
    await api("PUT", "/api/forms/quiz", {
      body: { markdown: markdown.replace("type: quiz", "type: quiz\nhumanness: false") },
    });
    const right = { http_status: "404", safe_methods: ["GET", "HEAD"], https_default: "yes" };
    const wrong = { http_status: "200", safe_methods: ["POST"], https_default: "no" };
    const runs = [right, right, { ...right, http_status: "500" }, wrong, wrong, wrong, wrong];
    for (const [i, fields] of runs.entries()) {
      const body = { fields: { ...fields, nickname: `n${i + 1}` } };
      expect((await api("POST", "/api/forms/quiz/submit", { key: null, body })).status).toBe(201);
    }
    const text = (await api("GET", "/api/forms/quiz/report?period=all")).body as string;
    expect(text).toContain("**7** responses in all time");
    expect(text).toMatch(
      /## Quiz scores\n\n\| Score \| Responses \|\n\| --- \| --- \|\n\| 0–9% \| 4 \|\n\| 70–79% \| 1 \|\n\| 90–100% \| 2 \|/,
    );
    expect(text).toContain("| GET | 3 | 43% |");
    // each quote newest first, with the same respondent's other key answers under it (issue 47)
    expect(text).toMatch(
      /> n7\n(> — [^\n]*\n)?>\n> n6\n(> — [^\n]*\n)?>\n> n5\n(> — [^\n]*\n)?>\n> n4\n(> — [^\n]*\n)?>\n> n3\n/,
    );
    expect(text).toContain("> — http_status: 200");
    expect(text).not.toContain("> n2");
    // a quiz's JSON export carries each record's score, as the list does
    const json = await download("/api/forms/quiz/responses/export?format=json");
    const records = (await api("GET", "/api/forms/quiz/responses?limit=100")).body.responses;
    expect(records).toHaveLength(7);
    expect(records[0].score).toMatchObject({ points: expect.any(Number) });
    expect(JSON.parse(json.text)).toEqual(records);
  });
});
