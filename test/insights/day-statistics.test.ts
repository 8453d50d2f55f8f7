// The planner knows how many groups a form's days make (migration 20261127000300): grouped by
// UTC day and seconds taken, the funnel's, stats' and report's statements hash a few groups
// instead of sorting every row, which it chose while it guessed one group per row.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const ROWS = 20_000;
const DAYS = 4;
const BY_DAY = `select date_bin('1 day', submitted_at, '2000-01-01T00:00:00Z') as day, seconds, count(*)
  from responses where form_id = $1 group by 1, 2`;

describe.each(DB_KINDS)("statistics on a form's days (%s)", (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
  });
  afterAll(async () => {
    await s?.close();
  });

  /** The planner's estimate of the groups BY_DAY makes for the form. */
  async function estimated(formId: string): Promise<number> {
    const [row] = await s.ctx.db.query<Record<string, unknown>>(`explain (format json) ${BY_DAY}`, [
      formId,
    ]);
    const raw = Object.values(row!)[0];
    const plan = (typeof raw === "string" ? JSON.parse(raw) : raw) as [
      { Plan: { "Plan Rows": number } },
    ];
    return plan[0].Plan["Plan Rows"];
  }

  it("estimates the days' groups, not one per response, once analyzed", async () => {
    const api = client(s.url, s.apiKey);
    const made = await api("POST", "/api/forms", {
      body: { title: "Days", slug: "days", fields: [{ id: "name", type: "text" }] },
    });
    expect(made.status).toBe(201);
    const [form] = await s.ctx.db.query<{ id: string }>("select id from forms where slug = 'days'");
    // ROWS responses over DAYS days, a fifth with a time taken in one of three values
    await s.ctx.db.query(
      `insert into responses (form_id, seq, payload, submitted_at, seconds)
       select $1, g, '{}'::jsonb, now() - make_interval(secs => g * ${(DAYS * 86_400) / ROWS}),
              case when g % 5 = 0 then 30 + g % 3 end
         from generate_series(1, ${ROWS}) g`,
      [form!.id],
    );
    await s.ctx.db.query("analyze responses");
    const groups = await s.ctx.db.query(BY_DAY, [form!.id]);
    expect(groups.length).toBeGreaterThanOrEqual(DAYS * 4);
    expect(groups.length).toBeLessThanOrEqual((DAYS + 1) * 4);
    expect(await estimated(form!.id)).toBeLessThanOrEqual(100);
    // without them the planner takes the day as unique as the instant it is computed from
    await s.ctx.db.query("drop statistics responses_day_seconds");
    await s.ctx.db.query("analyze responses");
    expect(await estimated(form!.id)).toBeGreaterThan(ROWS / 4);
  });
});
