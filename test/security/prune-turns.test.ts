// Eleventh review (2026-11-28, REVIEW-11A): the webhook sender's sweep (and the audit log's)
// prunes old rows 5,000 a statement, up to ten statements a minute. The statements ran back to
// back without the event loop turning (PGlite's statements do not let it), and each found its
// rows by `id in (…)`, which scanned the whole table: 40,000 old deliveries among 300,000 held
// PGlite's loop 2.4 s, every minute of a backlog (an account's ten webhooks write ten
// deliveries a submit; 30 days later they are due). Each round now has a turn of its own and
// finds its rows by their ids.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pruneDeliveries } from "../../functions/webhooks/queue.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const OLD = 12_000;

describe.each(DB_KINDS)("pruning old deliveries (%s)", (kind) => {
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
    const hook = await me("POST", "/api/forms/hooked/webhooks", {
      body: { url: "http://127.0.0.1:9/in" },
    });
    expect(hook.status).toBe(201);
    // a month-old backlog of delivered events, and today's
    await s.ctx.db.query(
      `insert into webhook_deliveries (webhook_id, event, status, created_at)
       select w.id, 'response.created', 'delivered', now() - make_interval(days => case when g <= $1 then 40 else 1 end)
         from webhooks w, generate_series(1, $1 + 3000) g`,
      [OLD],
    );
  }, 120_000);
  afterAll(() => s?.close());

  it("lets the event loop turn between its statements", async () => {
    let turns = 0;
    let counting = true;
    const tick = () => {
      turns++;
      if (counting) setImmediate(tick);
    };
    setImmediate(tick);
    let removed: number;
    try {
      removed = await pruneDeliveries(s.ctx.db, 30);
    } finally {
      counting = false;
    }
    expect(removed).toBe(OLD);
    // three statements (5,000, 5,000, 2,000), a turn before each after the first
    expect(turns).toBeGreaterThanOrEqual(2);
    const [left] = await s.ctx.db.query<{ n: number }>(
      "select count(*)::int as n from webhook_deliveries",
    );
    expect(left?.n).toBe(3000);
  }, 120_000);
});
