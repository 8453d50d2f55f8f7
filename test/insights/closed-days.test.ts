// The stats keep what they counted in a form's closed days (functions/reports/closed-days.ts):
// a read scans only the newer days' responses, and any change to a counted response — a delete,
// an update, a row dated earlier — sets what was kept aside.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closedBefore, overClosedDays } from "../../functions/reports/closed-days.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const DAY = 86_400_000;
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const form = {
  title: "Kept",
  slug: "kept",
  humanness: false,
  fields: [
    { id: "name", type: "text", label: "Name" },
    { id: "age", type: "number", label: "Age" },
  ],
};

interface Row {
  at: number;
  seconds: number | null;
  age: boolean;
  test: boolean;
}

describe.each(DB_KINDS)("stats over kept closed days (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  let formId: string;
  const rows: Row[] = [];
  const now = Date.now();

  /** Responses written as a restore would write them: dated, not submitted. */
  async function insert(batch: Row[]) {
    for (const r of batch)
      await s.ctx.db.query(
        `insert into responses (form_id, seq, payload, submitted_at, seconds, test)
         values ($1, 1, $2::jsonb, $3, $4, $5)`,
        [
          formId,
          JSON.stringify(r.age ? { name: "A", age: 30 } : { name: "B" }),
          new Date(r.at).toISOString(),
          r.seconds,
          r.test,
        ],
      );
    rows.push(...batch);
  }

  /** The stats as counted from `rows` here, by hand. */
  function expected(withTest = false) {
    const counted = rows.filter((r) => withTest || !r.test);
    const today = Date.parse(`${utcDay(now)}T00:00:00Z`);
    const perDay = Array.from(
      { length: 14 },
      (_, i) => counted.filter((r) => utcDay(r.at) === utcDay(today - (13 - i) * DAY)).length,
    );
    const times = counted.flatMap((r) => (r.seconds === null ? [] : [r.seconds]));
    times.sort((a, b) => a - b);
    const mid = times.length / 2;
    const median =
      times.length === 0
        ? null
        : times.length % 2
          ? times[Math.floor(mid)]
          : (times[mid - 1]! + times[mid]!) / 2;
    return {
      responses: counted.length,
      sparkline: perDay.slice(7),
      previous: perDay.slice(0, 7).reduce((a, b) => a + b, 0),
      answered: [counted.length, counted.filter((r) => r.age).length],
      median,
    };
  }

  async function stats(query = "") {
    const res = await api("GET", `/api/forms/kept/stats${query}`);
    expect(res.status).toBe(200);
    const b = res.body;
    return {
      responses: b.responses,
      sparkline: b.sparkline_7d.map((d: { count: number }) => d.count),
      previous: b.change.previous,
      answered: b.dropoff.map((d: { answered: number }) => d.answered),
      median: b.median_seconds,
    };
  }
  const kept = () =>
    s.ctx.db.query<{ until: string; n: number }>(
      "select until::text as until, (value ->> 'n')::int as n from response_rollups where form_id = $1",
      [formId],
    );

  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
    expect((await api("POST", "/api/forms", { body: form })).status).toBe(201);
    const [row] = await s.ctx.db.query<{ id: string }>("select id from forms where slug = 'kept'");
    formId = row!.id;
    // twenty days of responses, some with their time, some test answers, a few each day
    const batch: Row[] = [];
    for (let d = 0; d < 20; d++)
      for (let i = 0; i <= d % 4; i++)
        batch.push({
          at: now - d * DAY - i * 3_600_000,
          seconds: (d * 7 + i) % 5 === 0 ? null : 20 + ((d * 13 + i * 5) % 90),
          age: (d + i) % 3 !== 0,
          test: (d + i) % 7 === 0,
        });
    await insert(batch);
  });
  afterAll(() => s?.close());

  it("counts the closed days once, keeps them, and reads only the newer days after", async () => {
    expect(await stats()).toEqual(expected());
    const [first] = await kept();
    expect(new Date(first!.until).getTime()).toBe(closedBefore(Date.now()));
    expect(first!.n).toBe(rows.filter((r) => !r.test && r.at < closedBefore(Date.now())).length);
    // what is kept is what the next read uses: altered by hand, the stats show the alteration
    await s.ctx.db.query(
      "update response_rollups set value = jsonb_set(value, '{n}', to_jsonb((value ->> 'n')::int + 1000))",
    );
    expect((await stats()).responses).toBe(expected().responses + 1000);
    // a submit now is a newer day's: counted, and what is kept stays
    const res = await api("POST", "/api/forms/kept/submit", {
      key: null,
      body: { fields: { name: "N", age: 4 }, seconds: 33 },
    });
    expect(res.status).toBe(201);
    rows.push({ at: Date.now(), seconds: 33, age: true, test: false });
    expect((await stats()).responses).toBe(expected().responses + 1000);
  });

  it("sets what was kept aside when a counted response is deleted, updated or written dated earlier", async () => {
    const altered = () =>
      s.ctx.db.query(
        "update response_rollups set value = jsonb_set(value, '{n}', to_jsonb((value ->> 'n')::int + 1000))",
      );
    // the erasure API deletes one closed day's response
    const [old] = await s.ctx.db.query<{ id: string }>(
      "select id from responses where form_id = $1 and not test and submitted_at < now() - interval '3 days' order by submitted_at limit 1",
      [formId],
    );
    const oldest = rows.filter((r) => !r.test).sort((a, b) => a.at - b.at)[0]!;
    expect((await api("DELETE", `/api/forms/kept/responses/${old!.id}`)).status).toBeLessThan(300);
    rows.splice(rows.indexOf(oldest), 1);
    expect(await stats()).toEqual(expected());

    // a hand-written update of a counted response
    await altered();
    await s.ctx.db.query(
      "update responses set seconds = 500 where form_id = $1 and not test and seconds is not null and submitted_at < now() - interval '5 days'",
      [formId],
    );
    for (const r of rows)
      if (!r.test && r.seconds !== null && r.at < Date.now() - 5 * DAY) r.seconds = 500;
    expect(await stats()).toEqual(expected());

    // a response restored into a closed day
    await altered();
    await insert([{ at: now - 9 * DAY, seconds: 41, age: false, test: false }]);
    expect(await stats()).toEqual(expected());
  });

  it("keeps test answers and a filter's segment apart", async () => {
    expect(await stats("?include_test=true")).toEqual(expected(true));
    expect(await stats()).toEqual(expected());
    // a segment is counted whole, never from what is kept
    await s.ctx.db.query(
      "update response_rollups set value = jsonb_set(value, '{n}', to_jsonb((value ->> 'n')::int + 1000))",
    );
    const where = encodeURIComponent(JSON.stringify([{ field: "age", op: "answered" }]));
    const segment = await api("GET", `/api/forms/kept/stats?where=${where}`);
    expect(segment.status).toBe(200);
    expect(segment.body.responses).toBe(rows.filter((r) => !r.test && r.age).length);
  });

  it("asks only for the spans it has not kept, and everything when asked as of an earlier day", async () => {
    const asked: [string | null, string | null][] = [];
    const aggregate = {
      key: "spans",
      read: async (from: string | null, until: string | null) => {
        asked.push([from, until]);
        const [r] = await s.ctx.db.query<{ n: number }>(
          `select count(*)::int as n from responses where form_id = $1
             and ($2::timestamptz is null or submitted_at >= $2) and ($3::timestamptz is null or submitted_at < $3)`,
          [formId, from, until],
        );
        return r!.n;
      },
      merge: (a: number, b: number) => a + b,
    };
    const [{ all }] = (await s.ctx.db.query<{ all: number }>(
      "select count(*)::int as all from responses where form_id = $1",
      [formId],
    )) as [{ all: number }];
    const closed = new Date(closedBefore(Date.now())).toISOString();
    expect(await overClosedDays(s.ctx, formId, Date.now(), aggregate)).toBe(all);
    expect(asked.splice(0)).toEqual(
      expect.arrayContaining([
        [null, closed],
        [closed, null],
      ]),
    );
    expect(await overClosedDays(s.ctx, formId, Date.now(), aggregate)).toBe(all);
    expect(asked.splice(0)).toEqual([[closed, null]]);
    // as of three days ago, the kept days reach past the moment: everything is read
    expect(await overClosedDays(s.ctx, formId, Date.now() - 3 * DAY, aggregate)).toBe(all);
    expect(asked.splice(0)).toEqual([[null, null]]);
    // deleting the form deletes what it kept, and its deleted responses set nothing aside
    expect((await api("DELETE", "/api/forms/kept")).status).toBeLessThan(300);
    const left = await s.ctx.db.query(
      "select 1 from response_rollups where form_id = $1 union all select 1 from response_rollup_gens where form_id = $1",
      [formId],
    );
    expect(left).toEqual([]);
  });
});
