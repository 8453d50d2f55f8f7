// SPEC §24 in the results, on PGlite and Postgres: the ending and each variable are export
// columns (CSV, JSON, with labels), filters in `where`, figures in stats and the report, and
// `{var:<id>}` fills the owner's subject and the respondent's copy.
import { readFileSync } from "node:fs";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainOutbox } from "../../functions/mail/sender.ts";
import { parseFormFile } from "../../src/core/form-file.ts";
import { startPostmarkFake } from "../fakes/postmark.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const parsed = parseFormFile(
  readFileSync(new URL("../fixtures/examples/quote.md", import.meta.url), "utf8"),
  "quote.md",
);
if (!parsed.ok) throw new Error("quote.md does not parse");
const { tests: _t, ...quote } = parsed.form;

const answers = [
  { plan: "Business", seats: 10, billing: "Monthly", company: "Acme", email: "a@acme.test" },
  { plan: "Starter", seats: 3, company: "Beta", email: "b@beta.test" },
  { plan: "Enterprise", seats: 200, company: "Gamma", email: "c@gamma.test" },
  { plan: "Business", seats: 100, billing: "Yearly", company: "Delta", email: "d@delta.test" },
];

describe.each(DB_KINDS)("logic in the results (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  let postmark: Awaited<ReturnType<typeof startPostmarkFake>>;
  beforeAll(async () => {
    postmark = await startPostmarkFake();
    s = await startTestServer({
      db: kind,
      env: {
        POSTMARK_SERVER_TOKEN: "pm-test-token",
        POSTMARK_API_URL: postmark.url,
        FORMDOWN_MAIL_FROM: "forms@example.com",
      },
    });
    api = client(s.url, s.apiKey);
    expect((await api("POST", "/api/forms", { body: { ...quote, humanness: false } })).status).toBe(
      201,
    );
    for (const fields of answers) {
      const res = await api("POST", "/api/forms/quote/submit", { key: null, body: { fields } });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await postmark?.close();
  });
  /** An export's text (a download, not a JSON answer). */
  const download = async (path: string) =>
    (await fetch(`${s.url}${path}`, { headers: { authorization: `Bearer ${s.apiKey}` } })).text();

  it("exports the ending and each variable as the last columns, labelled on request", async () => {
    const csv = await download("/api/forms/quote/responses/export?format=csv");
    const rows = parse(csv, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]!).slice(-3)).toEqual(["ending", "per_seat", "total"]);
    const byCompany = Object.fromEntries(rows.map((r) => [r.company, r]));
    expect(byCompany.Acme).toMatchObject({ ending: "quote", per_seat: "12", total: "120" });
    expect(byCompany.Gamma).toMatchObject({ ending: "sales", per_seat: "8", total: "1600" });
    expect(byCompany.Delta).toMatchObject({ ending: "sales", total: "1080" });
    const labelled = await download("/api/forms/quote/responses/export?format=csv&header=labels");
    expect(labelled.split("\r\n")[0]).toMatch(/,Ending,Price per seat \(€\),Monthly total \(€\)$/);
    const json = JSON.parse(await download("/api/forms/quote/responses/export?format=json")) as {
      payload: { company: string };
      ending: string;
      variables: Record<string, number>;
    }[];
    expect(json.find((r) => r.payload.company === "Beta")).toMatchObject({
      ending: "quote",
      variables: { per_seat: 8, total: 24 },
    });
  });

  it("filters on a variable and on the ending, in lists, exports and stats", async () => {
    const where = (w: unknown) => encodeURIComponent(JSON.stringify(w));
    const big = await api(
      "GET",
      `/api/forms/quote/responses?where=${where([{ field: "total", op: "gte", value: 1000 }])}`,
    );
    expect(big.status).toBe(200);
    expect(
      big.body.responses.map((r: { payload: { company: string } }) => r.payload.company).sort(),
    ).toEqual(["Delta", "Gamma"]);
    const quoted = await download(
      `/api/forms/quote/responses/export?format=csv&where=${where([{ field: "ending", op: "eq", value: "quote" }])}`,
    );
    expect((parse(quoted, { columns: true }) as unknown[]).length).toBe(2);
    const bad = await api(
      "GET",
      `/api/forms/quote/responses?where=${where([{ field: "total", op: "contains", value: "1" }])}`,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/total \(a variable holding number\) cannot take contains/);
    const noEnding = await api(
      "GET",
      `/api/forms/quote/responses?where=${where([{ field: "ending", op: "eq", value: "nope" }])}`,
    );
    expect(noEnding.status).toBe(400);
    expect(noEnding.body.error).toMatch(
      /"nope" is not an ending of this form \(sales, quote, default\)/,
    );
  });

  it("sums up endings and variables in stats and the report", async () => {
    const stats = (await api("GET", "/api/forms/quote/stats")).body;
    expect(stats.endings).toEqual([
      { id: "quote", count: 2 },
      { id: "sales", count: 2 },
    ]);
    expect(stats.variables).toEqual([
      { id: "per_seat", label: "Price per seat (€)", count: 4, min: 8, mean: 10, max: 12 },
      { id: "total", label: "Monthly total (€)", count: 4, min: 24, mean: 706, max: 1600 },
    ]);
    const report = (await api("GET", "/api/forms/quote/report")).body as string;
    expect(report).toContain("## Endings");
    expect(report).toMatch(/\| quote +\| 2 +\|/);
    expect(report).toContain("## Variables");
    expect(report).toMatch(/\| Monthly total \(€\) +\| 4 +\| 24 \/ 706 \/ 1600 +\|/);
    const html = (await api("GET", "/api/forms/quote/report?format=html")).body as string;
    expect(html).toContain('<h2 id="vars-h">Variables</h2>');
  });

  it("pipes {var:total} into the owner's subject and the respondent's copy", async () => {
    for (let i = 0; i < 5; i++) if ((await drainOutbox(s.ctx, 200)).sent === 0) break;
    const owner = postmark.sent.filter((e) => e.To === "sales@example.com").map((e) => e.Subject);
    expect(owner).toContain("Quote for Acme: 120 € a month");
    const copy = postmark.sent.find((e) => e.To === "a@acme.test")!;
    expect(copy.Subject).toBe("Your Formdown quote: 120 € a month");
    expect(copy.TextBody).toContain("For 10 seats on Business you pay 120 € a month.");
    expect(copy.HtmlBody).toContain("<strong>120 €</strong>");
  });
});
