// The deliveries queue on a real database: a claim leases rows (a second claim does not take
// them again until the lease runs out), outcomes follow the backoff schedule, and a delivery
// whose webhook is gone is never claimed and is swept; a claim takes at most a receiver's share
// and leaves saturated receivers out; old delivered and failed ones are pruned.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../functions/db/db.ts";
import {
  afterFailure,
  claimDeliveries,
  pruneDeliveries,
  recordOutcomes,
  sweepOrphans,
} from "../../functions/webhooks/queue.ts";
import { DB_KINDS, freshDb } from "../helpers/db.ts";

describe("backoff", () => {
  it("waits each step of the schedule, then fails", () => {
    expect(afterFailure(1, [5, 60])).toEqual({ status: "pending", retryIn: 5 });
    expect(afterFailure(2, [5, 60])).toEqual({ status: "pending", retryIn: 60 });
    expect(afterFailure(3, [5, 60])).toEqual({ status: "failed", retryIn: 0 });
  });
});

describe.each(DB_KINDS)("the deliveries queue (%s)", (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  let hook: string;

  beforeAll(async () => {
    ({ db, drop } = await freshDb(kind));
    const [a] = await db.query<{ id: string }>(
      "insert into accounts (handler) values ('q') returning id",
    );
    const [f] = await db.query<{ id: string }>(
      `insert into forms (account_id, slug, short_code, title, type, definition)
       values ($1, 'q', 'Q1', 'Q', 'form', '{}') returning id`,
      [a!.id],
    );
    const [w] = await db.query<{ id: string }>(
      "insert into webhooks (form_id, url, events, secret) values ($1, 'http://x', '{response.deleted}', 's') returning id",
      [f!.id],
    );
    hook = w!.id;
  });
  afterAll(() => drop?.());

  it("leases what it claims, and records outcomes in one statement", async () => {
    await db.query(
      "insert into webhook_deliveries (webhook_id, event, response_id) select $1, 'response.deleted', gen_random_uuid() from generate_series(1, 5)",
      [hook],
    );
    const first = await claimDeliveries(db, 3, 60);
    const second = await claimDeliveries(db, 10, 60);
    expect(first).toHaveLength(3);
    expect(second).toHaveLength(2);
    expect(new Set([...first, ...second].map((r) => r.id)).size).toBe(5);
    expect(first.every((r) => r.attempts === 1 && r.slug === "q")).toBe(true);
    expect(await claimDeliveries(db, 10, 60)).toHaveLength(0);
    await recordOutcomes(db, [
      { id: first[0]!.id, status: "delivered", httpStatus: 200, error: null, retryIn: 0 },
      { id: first[1]!.id, status: "pending", httpStatus: 500, error: "HTTP 500", retryIn: 0 },
      { id: first[2]!.id, status: "failed", httpStatus: null, error: "gone", retryIn: 0 },
    ]);
    const again = await claimDeliveries(db, 10, 60);
    expect(again.map((r) => [r.id, r.attempts])).toEqual([[first[1]!.id, 2]]);
    const rows = await db.query<{ status: string; last_status: number | null }>(
      "select status, last_status from webhook_deliveries where id = any($1::uuid[]) order by status",
      [[first[0]!.id, first[2]!.id]],
    );
    expect(rows).toEqual([
      { status: "delivered", last_status: 200 },
      { status: "failed", last_status: null },
    ]);
  });

  it("drops a deleted webhook's deliveries, and sweeps one a racing submit left behind", async () => {
    const [w] = await db.query<{ id: string; form_id: string }>(
      "insert into webhooks (form_id, url, events, secret) select form_id, 'http://y', '{response.deleted}', 's' from webhooks where id = $1 returning id, form_id",
      [hook],
    );
    await db.query(
      "insert into webhook_deliveries (webhook_id, event) values ($1, 'response.deleted')",
      [w!.id],
    );
    await db.query("delete from webhooks where id = $1", [w!.id]);
    const left = await db.query("select 1 from webhook_deliveries where webhook_id = $1", [w!.id]);
    expect(left).toHaveLength(0);
    // a submit that read the webhook before the delete commits its delivery after it
    await db.query(
      "insert into webhook_deliveries (webhook_id, event) values ($1, 'response.deleted')",
      [w!.id],
    );
    expect(await claimDeliveries(db, 10, 60)).toHaveLength(0);
    await sweepOrphans(db);
    expect(
      await db.query("select 1 from webhook_deliveries where webhook_id = $1", [w!.id]),
    ).toHaveLength(0);
  });

  it("takes at most each receiver's share, and none of a saturated receiver's", async () => {
    const two = await db.query<{ id: string }>(
      `insert into webhooks (form_id, url, events, secret)
       select form_id, u, '{response.deleted}', 's' from webhooks, (values ('http://a'), ('http://b')) as x(u)
        where id = $1 returning id`,
      [hook],
    );
    const [a, b] = two.map((w) => w.id) as [string, string];
    await db.query(
      `insert into webhook_deliveries (webhook_id, event)
       select $1::uuid, 'response.deleted' from generate_series(1, 5)
       union all select $2::uuid, 'response.deleted' from generate_series(1, 2)`,
      [a, b],
    );
    const mine = (rows: { webhook_id: string }[]) =>
      rows
        .map((r) => (r.webhook_id === a ? "a" : r.webhook_id === b ? "b" : "other"))
        .sort()
        .join("");
    expect(mine(await claimDeliveries(db, 10, 60, [], 3))).toBe("aaabb");
    expect(mine(await claimDeliveries(db, 10, 60, [a], 3))).toBe("");
    expect(mine(await claimDeliveries(db, 10, 60, [], 3))).toBe("aa");
  });

  it("prunes delivered and failed deliveries past the retention, never a pending one", async () => {
    const ids = await db.query<{ id: string; label: string }>(
      `insert into webhook_deliveries (webhook_id, event, status, created_at, next_attempt_at)
       select $1, 'response.deleted', s, now() - make_interval(days => d), now() + interval '1 hour'
         from (values ('delivered', 31), ('failed', 45), ('pending', 60), ('delivered', 29), ('failed', 1))
           as x(s, d)
       returning id, status || ' ' || extract(day from now() - created_at)::int as label`,
      [hook],
    );
    expect(await pruneDeliveries(db, 0)).toBe(0);
    expect(await pruneDeliveries(db, 30)).toBe(2);
    const left = await db.query<{ id: string }>(
      "select id from webhook_deliveries where id = any($1::uuid[])",
      [ids.map((r) => r.id)],
    );
    expect(ids.filter((r) => left.some((l) => l.id === r.id)).map((r) => r.label)).toEqual([
      "pending 60",
      "delivered 29",
      "failed 1",
    ]);
    expect(await pruneDeliveries(db, 30)).toBe(0);
  });
});
