// The all-time report keeps what it counted in a form's closed days as the stats do
// (functions/reports/closed-days.ts), and the kept counts stay true while reads, deletes and
// restores interleave.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectReport } from "../../functions/reports/report-data.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const DAY = 86_400_000;
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const form = {
  title: "Busy",
  slug: "busy",
  humanness: false,
  fields: [{ id: "name", type: "text", label: "Name" }],
};

describe.each(DB_KINDS)("the report over kept closed days (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  let row: Parameters<typeof collectReport>[1];
  const now = Date.now();
  const survey = {
    title: "Kept report",
    slug: "kept-report",
    humanness: false,
    fields: [
      { id: "role", type: "radio", label: "Role", options: ["Engineering", "Product"] },
      { id: "stars", type: "rating", label: "Stars" },
      {
        id: "aspects",
        type: "matrix",
        label: "Rate these",
        rows: [
          { id: "speed", label: "Speed" },
          { id: "docs", label: "Docs" },
        ],
        columns: ["Poor", "Good"],
      },
      { id: "order", type: "ranking", label: "Order", options: ["Price", "Support"] },
      { id: "note", type: "text", label: "Note" },
    ],
  };
  /** The report as kept (all time) and as read whole (all time spelled as a period). */
  const both = async () => {
    const as = { period: { kind: "all" as const }, now, until: null };
    const kept = await collectReport(s.ctx, row, { ...as, since: null });
    const whole = await collectReport(s.ctx, row, { ...as, since: "1970-01-01T00:00:00Z" });
    return { kept, whole };
  };

  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
    expect((await api("POST", "/api/forms", { body: survey })).status).toBe(201);
    [row] = (await s.ctx.db.query("select id, slug, title, definition from forms")) as [typeof row];
    await s.ctx.db.query(
      `insert into responses (form_id, seq, payload, submitted_at, seconds)
       select $1, g, jsonb_build_object(
                'role', case when g % 9 = 0 then '["Product"]'::jsonb when g % 3 = 0 then '"Product"' else '"Engineering"' end,
                'stars', g % 5 + 1,
                'aspects', jsonb_build_object('speed', case when g % 2 = 0 then 'Good' else 'Poor' end, 'docs', 'Good'),
                'order', case when g % 4 = 0 then '["Support", "Price"]'::jsonb else '["Price", "Support"]' end,
                'note', 'note ' || g),
              now() - make_interval(hours => g * 3), 10 + g % 30
         from generate_series(1, 150) g`,
      [row.id],
    );
  });
  afterAll(() => s?.close());

  it("gives the report read whole, keeps what it counted, and sets it aside on a change", async () => {
    // today's, beside the closed days'
    for (const role of ["Product", "Engineering", "Product"]) {
      const fields = { role, stars: 2, aspects: { speed: "Good" }, order: ["Support", "Price"] };
      const res = await api("POST", "/api/forms/kept-report/submit", {
        key: null,
        body: { fields: { ...fields, note: "today" }, seconds: 12 },
      });
      expect(res.status).toBe(201);
    }
    const first = await both();
    expect(first.kept.responses).toBe(153);
    expect({ ...first.kept, period: null }).toEqual({ ...first.whole, period: null });
    // the counts, the report's per field values, the quiz-less totals: one kept row each
    const [{ n }] = (await s.ctx.db.query<{ n: number }>(
      "select count(*)::int as n from response_rollups",
    )) as [{ n: number }];
    expect(n).toBe(5);
    // kept: altered by hand, the next report shows it
    await s.ctx.db.query(
      "update response_rollups set value = jsonb_set(value, '{n}', to_jsonb((value ->> 'n')::int + 1000)) where value ? 'n'",
    );
    expect((await both()).kept.responses).toBe(1153);
    // a deleted response sets it aside, and the report is the whole one again
    const [gone] = await s.ctx.db.query<{ id: string }>(
      "select id from responses order by submitted_at limit 1",
    );
    expect((await api("DELETE", `/api/forms/kept-report/responses/${gone!.id}`)).status).toBe(204);
    const after = await both();
    expect(after.kept.responses).toBe(152);
    // kept again, under the new generation; the earlier generation's rows are gone
    const gens = await s.ctx.db.query<{ gen: string }>(
      "select distinct gen::text as gen from response_rollups",
    );
    expect(gens).toHaveLength(1);
    expect({ ...after.kept, period: null }).toEqual({ ...after.whole, period: null });
    // and the Markdown report the API serves is the kept one
    const md = await fetch(`${s.url}/api/forms/kept-report/report?period=all`, {
      headers: { authorization: `Bearer ${s.apiKey}` },
    }).then((r) => r.text());
    expect(md).toContain("152");
  });

  it("keeps a report's aggregates side by side after each change, never in a deadlock", async () => {
    // each report keeps its five aggregates at once, on several connections on Postgres; after
    // a change every one of them also has an earlier generation's row to set aside
    const as = { period: { kind: "all" as const }, now, until: null, since: null };
    const gone = await s.ctx.db.query<{ id: string }>(
      "select id from responses order by submitted_at limit 24",
    );
    for (const { id } of gone) {
      expect((await api("DELETE", `/api/forms/kept-report/responses/${id}`)).status).toBe(204);
      const reports = await Promise.all([1, 2, 3, 4].map(() => collectReport(s.ctx, row, as)));
      for (const r of reports) expect(r.responses).toBe(reports[0]!.responses);
    }
    const [{ left }] = (await s.ctx.db.query<{ left: number }>(
      "select count(*)::int as left from responses where form_id = $1",
      [row.id],
    )) as [{ left: number }];
    const last = await both();
    expect(last.kept.responses).toBe(left);
    expect({ ...last.kept, period: null }).toEqual({ ...last.whole, period: null });
  });
});

describe.each(DB_KINDS)("kept closed days under concurrent changes (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  let formId: string;

  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
    expect((await api("POST", "/api/forms", { body: form })).status).toBe(201);
    const [row] = await s.ctx.db.query<{ id: string }>("select id from forms where slug = 'busy'");
    formId = row!.id;
    await s.ctx.db.query(
      `insert into responses (form_id, seq, payload, submitted_at)
       select $1, g, '{"name": "A"}'::jsonb, now() - make_interval(mins => g * 7) from generate_series(1, 2000) g`,
      [formId],
    );
  });
  afterAll(() => s?.close());

  it("ends with the counts of the rows as they are, however reads, deletes and restores interleave", async () => {
    let reading = true;
    const reads = (async () => {
      let n = 0;
      while (reading) {
        expect((await api("GET", "/api/forms/busy/stats")).status).toBe(200);
        n++;
      }
      return n;
    })();
    // each its own transaction: a delete of one closed day's response, a restore into another
    for (let i = 0; i < 60; i++) {
      if (i % 3 === 2)
        await s.ctx.db.query(
          `insert into responses (form_id, seq, payload, submitted_at)
           values ($1, 1, '{"name": "B"}'::jsonb, now() - make_interval(hours => $2))`,
          [formId, 30 + i * 3],
        );
      else
        await s.ctx.db.query(
          `delete from responses where id = (select id from responses where form_id = $1
             and submitted_at < now() - interval '2 days' order by submitted_at limit 1 offset $2)`,
          [formId, i * 11],
        );
      await new Promise((r) => setTimeout(r, 5));
    }
    reading = false;
    expect(await reads).toBeGreaterThan(0);
    const [truth] = await s.ctx.db.query<{ n: number }>(
      "select count(*)::int as n from responses where form_id = $1",
      [formId],
    );
    const days = await s.ctx.db.query<{ day: string; n: number }>(
      `select to_char(submitted_at at time zone 'UTC', 'YYYY-MM-DD') as day, count(*)::int as n
         from responses where form_id = $1 group by 1`,
      [formId],
    );
    const perDay = new Map(days.map((d) => [d.day, d.n]));
    // twice: the first may count again what a change set aside, the second reads what it kept
    for (let round = 0; round < 2; round++) {
      const stats = (await api("GET", "/api/forms/busy/stats")).body;
      expect(stats.responses).toBe(truth!.n);
      for (const d of stats.sparkline_7d) expect(d.count).toBe(perDay.get(d.date) ?? 0);
      const first = Date.parse(`${stats.sparkline_7d[0].date}T00:00:00Z`);
      const before = Array.from({ length: 7 }, (_, i) => utcDay(first - (7 - i) * DAY));
      expect(stats.change.previous).toBe(before.reduce((n, d) => n + (perDay.get(d) ?? 0), 0));
    }
  });
});
