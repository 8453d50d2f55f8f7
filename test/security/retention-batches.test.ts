// Eleventh review (2026-11-28, REVIEW-11A): the daily retention run deleted every response past
// its form's retention_days in one statement, writing each webhook's `response.deleted` in it
// too, and on PGlite no statement lets the event loop turn. One account's form with ten such
// webhooks and 20,000 responses older than `retention_days: 1` (within the submit rate: a day
// of ordinary submits) held the loop 15 s at the next day's run, and the run recurs daily. The
// partials' purge in the same run was one statement as well. Both now go a batch at a time, in
// turns of their own; the day's claim still comes with the first batch. And each deleted
// response cost a scan of the whole outbox (every account's emails, kept for good) and of the
// uploads: the foreign keys' look-ups by response_id had no index. With 20,000 emails kept,
// deleting 20,000 responses took 54 s even in batches (0.7 s with the indexes).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enforceRetention } from "../../functions/services/retention.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const RESPONSES = 2500;
const PARTIALS = 12_000;
const HOOKS = 10;

describe.each(DB_KINDS)("the daily retention run (%s)", (kind) => {
  let s: TestServer;
  const count = async (table: "responses" | "partials" | "webhook_deliveries") =>
    (await s.ctx.db.query<{ n: number }>(`select count(*)::int as n from ${table}`))[0]!.n;

  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    const other = client(s.url, await s.otherKey());
    const made = await other("POST", "/api/forms", {
      body: {
        title: "Kept briefly",
        slug: "brief",
        humanness: false,
        settings: { retention_days: 1, partial: true, partial_days: 1 },
        fields: [{ id: "a", type: "text" }],
      },
    });
    expect(made.status).toBe(201);
    for (let i = 0; i < HOOKS; i++) {
      const hook = await other("POST", "/api/forms/brief/webhooks", {
        body: { url: `http://127.0.0.1:9/h${i}`, events: ["response.deleted"] },
      });
      expect(hook.status).toBe(201);
    }
    for (let i = 0; i < 5; i++) {
      const sent = await other("POST", "/api/forms/brief/submit", {
        key: null,
        body: { fields: { a: `answer ${i}` } },
      });
      expect(sent.status).toBe(201);
    }
    const saved = await other("POST", "/api/forms/brief/partial", {
      key: null,
      body: { fields: { a: "half" } },
    });
    expect(saved.status).toBe(200);
    // the rest as copies of those (a day of submits and saves, made here in one statement each)
    await s.ctx.db.query(
      `insert into responses (form_id, seq, submitted_at, payload, test, version)
       select form_id, seq + g * 10, submitted_at, payload, test, version
         from responses, generate_series(1, $1::int) g`,
      [RESPONSES / 5 - 1],
    );
    await s.ctx.db.query(
      `insert into partials (id, form_id, token, payload)
       select gen_random_uuid(), form_id, token || g, payload from partials, generate_series(1, $1::int) g`,
      [PARTIALS - 1],
    );
    await s.ctx.db.query("update responses set submitted_at = now() - interval '3 days'");
    await s.ctx.db.query("update partials set updated_at = now() - interval '3 days'");
  }, 120_000);
  afterAll(() => s?.close());

  it("finds a deleted response's emails and uploads by an index, not a scan", async () => {
    const indexes = await s.ctx.db.query<{ table: string; def: string }>(
      `select tablename as table, indexdef as def from pg_indexes
        where schemaname = 'public' and tablename in ('outbox', 'uploads')`,
    );
    for (const table of ["outbox", "uploads"]) {
      const usable = indexes.filter(
        (i) => i.table === table && /\(response_id\)$/.test(i.def), // no WHERE: every row
      );
      expect(usable, table).toHaveLength(1);
    }
  });

  it("deletes a batch per statement, and all of them", async () => {
    const query = s.ctx.db.query.bind(s.ctx.db);
    const deleted = { responses: [] as number[], partials: [] as number[] };
    s.ctx.db.query = (async (text: string, params?: unknown[], options?: object) => {
      const rows = await query(text, params, options);
      const first = (rows as Record<string, unknown>[])[0];
      const table = /delete from (responses|partials)/.exec(text)?.[1] as "responses" | undefined;
      if (table) deleted[table].push(Number(first?.deleted ?? first?.n ?? rows.length));
      return rows;
    }) as typeof s.ctx.db.query;
    try {
      expect(await enforceRetention(s.ctx)).toEqual({ ran: true, deleted: RESPONSES });
      // the day is claimed: a second run (another instance, the next minute) deletes nothing
      expect(await enforceRetention(s.ctx)).toEqual({ ran: false, deleted: 0 });
    } finally {
      s.ctx.db.query = query;
    }
    expect(await count("responses")).toBe(0);
    expect(await count("partials")).toBe(0);
    expect(await count("webhook_deliveries")).toBe(RESPONSES * HOOKS);
    // at most 200 responses (2,000 deliveries) and 5,000 partials a statement
    expect(Math.max(...deleted.responses)).toBeLessThanOrEqual(200);
    expect(Math.max(...deleted.partials)).toBeLessThanOrEqual(5000);
    expect(deleted.responses.reduce((a, b) => a + b)).toBe(RESPONSES);
    expect(deleted.partials.reduce((a, b) => a + b)).toBe(PARTIALS);
    const [run] = await s.ctx.db.query<{ deleted: number }>(
      "select deleted from upkeep_runs where job = 'retention'",
    );
    expect(run?.deleted).toBe(RESPONSES);
  }, 120_000);
});
