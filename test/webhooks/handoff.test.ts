// A submit hands its deliveries straight to this process's sender (functions/webhooks/handover.ts
// handOver): the rows are written already leased, so no claim takes them while the first attempt
// may still run, and a retry built from the table sends the very same body (jsonb's key order).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { hookReceiver, type Receiver } from "./receiver.ts";

describe.each(DB_KINDS)("deliveries handed over by the submit (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  const receivers: Receiver[] = [];
  let n = 0;

  beforeAll(async () => {
    s = await startTestServer({
      db: kind,
      env: { FORMDOWN_WEBHOOK_TIMEOUT_MS: "400", FORMDOWN_WEBHOOK_BACKOFF: "0.2,0.2,0.2" },
      webhookSender: true,
    });
    api = client(s.url, s.apiKey);
  });
  afterAll(async () => {
    for (const r of receivers) await r.close();
    await s?.close();
  });

  async function hooked() {
    const slug = `handoff-${kind}-${n++}`;
    // field ids in an order jsonb does not keep (it puts shorter keys first)
    const created = await api("POST", "/api/forms", {
      body: {
        title: "Handoff",
        slug,
        humanness: false,
        fields: [
          { id: "surname_of_the_person", type: "text" },
          { id: "b", type: "text" },
          { id: "aa", type: "checkbox", options: ["x", "y"] },
        ],
      },
    });
    expect(created.status).toBe(201);
    return { slug, ...(await hookReceiver(api, slug, receivers)) };
  }
  const submit = (slug: string) =>
    api("POST", `/api/forms/${slug}/submit`, {
      key: null,
      body: { fields: { surname_of_the_person: "Lovelace", b: "Ada", aa: ["y", "x"] } },
    });

  it("sends the first attempt and a retry from the table with the same id and the same bytes", async () => {
    const { slug, receiver } = await hooked();
    receiver.behave((_, i) => (i === 1 ? 500 : 204));
    const sent = await submit(slug);
    expect(sent.status).toBe(201);
    const [first, retry] = await receiver.until((r) => r.length === 2, 5000);
    expect(first!.verified && retry!.verified).toBe(true);
    expect(retry!.id).toBe(first!.id);
    expect(retry!.body).toBe(first!.body);
    expect(first!.json.data.response).toMatchObject({
      id: sent.body.response_id,
      payload: { surname_of_the_person: "Lovelace", b: "Ada", aa: ["y", "x"] },
    });
  });

  it("leases the row it hands over: no claim takes it again while the first attempt may run", async () => {
    const { slug, receiver, hook } = await hooked();
    receiver.behave((_, i) => (i === 1 ? "hang" : 204));
    expect((await submit(slug)).status).toBe(201);
    await receiver.until((r) => r.length === 1);
    const log = await api("GET", `/api/forms/${slug}/webhooks/${hook.id}/deliveries`);
    const row = log.body.deliveries[0];
    if (kind === "pglite") {
      // handed over without a row: none exists for a claim to take until the outcome is written
      expect(log.body.total).toBe(0);
      const [left] = await s.ctx.db.query<{ n: number }>(
        "select count(*)::int as n from webhook_deliveries where webhook_id = $1",
        [hook.id],
      );
      expect(left!.n).toBe(0);
    } else {
      expect(row).toMatchObject({ status: "pending", attempts: 1 });
      // the lease is the timeout and 5 s: well past the sender's next periodic claim
      expect(Date.parse(row.next_attempt_at) - Date.parse(row.created_at)).toBeGreaterThan(5000);
    }
    // the hanging attempt times out (400 ms), and only then the retry comes, with the same id
    const [first, second] = await receiver.until((r) => r.length === 2, 5000);
    expect(second!.id).toBe(first!.id);
    await expect
      .poll(
        async () =>
          (await api("GET", `/api/forms/${slug}/webhooks/${hook.id}/deliveries`)).body
            .deliveries[0],
      )
      .toMatchObject({ status: "delivered", attempts: 2 });
  });

  // PGlite alone hands deliveries over without a row; Postgres has no such test, not a skipped one
  if (kind === "pglite")
    it("records first-attempt deliveries as one batch row per webhook, lists them, and retries one by its id", async () => {
      const { slug, receiver, hook } = await hooked();
      receiver.behave(() => 204);
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) ids.push((await submit(slug)).body.response_id as string);
      await receiver.until((r) => r.length === 5);
      const list = async () =>
        (await api("GET", `/api/forms/${slug}/webhooks/${hook.id}/deliveries`)).body;
      await expect.poll(async () => (await list()).total).toBe(5);
      const log = await list();
      expect(new Set(log.deliveries.map((d: { response_id: string }) => d.response_id))).toEqual(
        new Set(ids),
      );
      expect(log.deliveries.every((d: { status: string }) => d.status === "delivered")).toBe(true);
      // the ids listed are the ids the receiver was sent (webhook-id)
      expect(new Set(log.deliveries.map((d: { id: string }) => d.id))).toEqual(
        new Set(receiver.received.map((r) => r.id)),
      );
      // the ids come from the submit's process; a recovery after a kill derives the same in SQL
      const [derived] = await s.ctx.db.query<{ id: string }>(
        "select webhook_delivery_id($1, $2) as id",
        [hook.id, ids[0]],
      );
      expect(log.deliveries.find((d: { response_id: string }) => d.response_id === ids[0]).id).toBe(
        derived!.id,
      );
      // no row per delivery: their places in batch rows of webhook_delivered
      const [counts] = await s.ctx.db.query<{ rows: number; places: number }>(
        `select (select count(*)::int from webhook_deliveries where webhook_id = $1) as rows,
                (select coalesce(sum(cardinality(response_ids)), 0)::int from webhook_delivered where webhook_id = $1) as places`,
        [hook.id],
      );
      expect(counts).toEqual({ rows: 0, places: 5 });
      // a retry asked for by the owner sends it again with the same id; its row takes its place
      const again = log.deliveries[0] as { id: string };
      const retried = await api(
        "POST",
        `/api/forms/${slug}/webhooks/${hook.id}/deliveries/${again.id}/retry`,
      );
      expect(retried.status).toBe(202);
      const [, , , , , sixth] = await receiver.until((r) => r.length === 6);
      expect(sixth!.id).toBe(again.id);
      await expect
        .poll(async () => (await list()).deliveries.find((d: { id: string }) => d.id === again.id))
        .toMatchObject({ status: "delivered", attempts: 2 });
      expect((await list()).total).toBe(5);
    });
});
