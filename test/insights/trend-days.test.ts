// The report's trend counts each response on its UTC day: one a millisecond before midnight on
// the day before, one at midnight on the day after, on both databases (functions/reports/
// report-data.ts, trendFor: the day computed with date_bin).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectReport, trendFor } from "../../functions/reports/report-data.ts";
import { statsBesideTrend } from "../../functions/reports/stats.ts";
import { formSequence } from "../../functions/services/submit-sql.ts";
import type { WhereCondition } from "../../src/core/where/where.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const AT = [
  "2026-11-20T23:59:59.999Z",
  "2026-11-21T00:00:00.000Z",
  "2026-11-21T00:00:00.001Z",
  "2026-11-21T12:00:00Z",
  "2026-11-22T23:59:59.999999Z",
  "2026-11-24T00:00:00Z",
  // just before the window's first day, its first instant, and past its last day
  "2026-10-25T23:59:59.999Z",
  "2026-10-26T00:00:00Z",
  "2026-11-25T00:00:00Z",
];

describe.each(DB_KINDS)("the report's trend, by UTC day (%s)", (kind) => {
  let s: TestServer;
  let formId: string;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    const api = client(s.url, s.apiKey);
    const made = await api("POST", "/api/forms", {
      body: { title: "Days", slug: "days", humanness: false, fields: [{ id: "a", type: "text" }] },
    });
    expect(made.status).toBe(201);
    [{ id: formId }] = (await s.ctx.db.query<{ id: string }>(
      "select id from forms where slug = 'days'",
    )) as [{ id: string }];
    for (const at of AT)
      await s.ctx.db.query(
        `insert into responses (form_id, payload, seq, submitted_at)
         values ($1, '{"a": "x"}', nextval($2::regclass), $3::timestamptz)`,
        [formId, formSequence(formId), at],
      );
  });
  afterAll(() => s?.close());

  it("puts each response on its day, the last day being the day of `now`", async () => {
    const trend = await trendFor(s.ctx, formId, Date.parse("2026-11-24T18:00:00Z"), 30);
    expect(trend).toHaveLength(30);
    expect(trend[0]!.date).toBe("2026-10-26");
    expect(trend.at(-1)).toEqual({ date: "2026-11-24", count: 1 });
    const counted = Object.fromEntries(
      trend.filter((d) => d.count > 0).map((d) => [d.date, d.count]),
    );
    expect(counted).toEqual({
      "2026-10-26": 1,
      "2026-11-20": 1,
      "2026-11-21": 3,
      "2026-11-22": 1,
      "2026-11-24": 1,
    });
  });

  it("reads a segment's all-time trend and stats off its counts by day, as the statements over the days give them", async () => {
    // answers the segment leaves out, on days of its own and on one of the others'
    for (const at of ["2026-11-21T08:00:00Z", "2026-11-23T08:00:00Z", "2026-11-24T01:00:00Z"])
      await s.ctx.db.query(
        `insert into responses (form_id, payload, seq, submitted_at)
         values ($1, '{"a": "y"}', nextval($2::regclass), $3::timestamptz)`,
        [formId, formSequence(formId), at],
      );
    const [row] = await s.ctx.db.query<{ definition: never }>(
      "select definition from forms where id = $1",
      [formId],
    );
    const now = Date.parse("2026-11-24T18:00:00Z");
    const where = [{ field: "a", op: "eq", value: "x" }];
    const report = await collectReport(
      s.ctx,
      { id: formId, slug: "days", title: "Days", definition: row!.definition },
      { since: null, until: null, period: { kind: "all" }, now, where },
    );
    const checked: WhereCondition[] = report.segment!;
    const trend = await trendFor(s.ctx, formId, now, 30, false, checked);
    expect(report.trend).toEqual(trend);
    expect(report.trend.find((d) => d.date === "2026-11-21")!.count).toBe(3);
    expect(report.trend.find((d) => d.date === "2026-11-23")!.count).toBe(0);
    const stats = await statsBesideTrend(
      s.ctx,
      { id: formId },
      Promise.resolve(trend),
      30,
      now,
      false,
      checked,
    );
    expect(report.responses).toBe(AT.length);
    expect(report.totals.responses).toBe(stats.responses);
    expect(report.change).toEqual(stats.change);
  });
});
