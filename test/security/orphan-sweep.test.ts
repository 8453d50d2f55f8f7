// Eleventh review (2026-11-28, REVIEW-11A): the webhook sender's sweep removes, once a minute,
// pending deliveries whose webhook is gone. It anti-joined every pending delivery with the
// webhooks: a million pending (one account's hanging receivers, ten to a form, fill the queue at
// the submit rate, and each delivery stays pending 32 h) held PGlite's loop 0.7 s a minute, more
// with more. It now visits each webhook id with pending deliveries once, along the index.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepOrphans } from "../../functions/webhooks/queue.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const PENDING = 20_000;

/** Rows the plan's nodes produced, over all their loops. */
function rowsSeen(node: Record<string, unknown>): number {
  const own = Number(node["Actual Rows"] ?? 0) * Number(node["Actual Loops"] ?? 1);
  const kids = (node.Plans as Record<string, unknown>[] | undefined) ?? [];
  return own + kids.reduce((n, k) => n + rowsSeen(k), 0);
}

describe.each(DB_KINDS)("sweeping orphaned deliveries (%s)", (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    const me = client(s.url, s.apiKey);
    const made = await me("POST", "/api/forms", {
      body: {
        title: "Hooked",
        slug: "hooked",
        humanness: false,
        fields: [{ id: "a", type: "text" }],
      },
    });
    expect(made.status).toBe(201);
    for (let i = 0; i < 2; i++) {
      const hook = await me("POST", "/api/forms/hooked/webhooks", {
        body: { url: `http://127.0.0.1:9/h${i}` },
      });
      expect(hook.status).toBe(201);
    }
    // a receiver's backlog, and three deliveries a submit wrote after their webhook's delete
    await s.ctx.db.query(
      `insert into webhook_deliveries (webhook_id, event, next_attempt_at)
       select w.id, 'response.created', now() + interval '1 hour'
         from webhooks w, generate_series(1, $1::int / 2) g`,
      [PENDING],
    );
    await s.ctx.db.query(
      `insert into webhook_deliveries (webhook_id, event)
       select gen_random_uuid(), 'response.created' from generate_series(1, 3)`,
    );
    await s.ctx.db.query("analyze webhook_deliveries");
  }, 120_000);
  afterAll(() => s?.close());

  it("removes the orphans without reading the backlog", async () => {
    const query = s.ctx.db.query.bind(s.ctx.db);
    let text = "";
    s.ctx.db.query = (async (t: string, params?: unknown[], options?: object) => {
      text = t;
      return query(`explain (analyze, format json) ${t}`, params, options);
    }) as typeof s.ctx.db.query;
    let plan: Record<string, unknown>[];
    try {
      plan = (await sweepOrphans(s.ctx.db)) as Record<string, unknown>[];
    } finally {
      s.ctx.db.query = query;
    }
    expect(text).toMatch(/delete from webhook_deliveries/);
    const json = Object.values(plan[0]!)[0];
    const root = (typeof json === "string" ? JSON.parse(json) : json) as { Plan: object }[];
    // a few rows per webhook id, not one per pending delivery
    expect(rowsSeen(root[0]!.Plan as Record<string, unknown>)).toBeLessThan(1000);
    const [left] = await s.ctx.db.query<{ n: number }>(
      "select count(*)::int as n from webhook_deliveries",
    );
    expect(left?.n).toBe(PENDING);
  }, 120_000);
});
