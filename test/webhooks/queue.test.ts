// The deliveries queue on a real database: a claim leases rows (a second claim does not take
// them again until the lease runs out), outcomes follow the backoff schedule, and a delivery
// whose webhook is gone is never claimed and is swept.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../functions/db/db.ts";
import {
  afterFailure,
  claimDeliveries,
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
});
