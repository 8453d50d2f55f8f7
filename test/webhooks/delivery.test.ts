// Webhooks end to end (SPEC §11): a real server, a real loopback receiver that checks every
// signature with the `standardwebhooks` package, on PGlite and Postgres.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Log } from "../../functions/context.ts";
import { type ApiResult, client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { hookReceiver, type Receiver } from "./receiver.ts";

const env = {
  FORMDOWN_WEBHOOK_TIMEOUT_MS: "400",
  FORMDOWN_WEBHOOK_BACKOFF: "0.2,0.2,0.2",
};

describe.each(DB_KINDS)("webhooks (%s)", (kind) => {
  let s: TestServer;
  /** What the server logged as errors, with their fields (one JSON line each in production). */
  const logged: ({ msg: string } & Record<string, unknown>)[] = [];
  const log: Log = {
    info: () => {},
    error: (msg, _error, fields) => logged.push({ msg, ...fields }),
  };
  let api: ReturnType<typeof client>;
  const receivers: Receiver[] = [];
  let n = 0;

  beforeAll(async () => {
    s = await startTestServer({ db: kind, env, webhookSender: true, log });
    api = client(s.url, s.apiKey);
  });
  afterAll(async () => {
    for (const r of receivers) await r.close();
    await s?.close();
  });

  async function form(extra: Record<string, unknown> = {}): Promise<string> {
    const slug = `hooked-${kind}-${n++}`;
    const res = await api("POST", "/api/forms", {
      body: {
        title: "Hooked <form>",
        slug,
        humanness: false,
        fields: [{ id: "name", type: "text", label: "Name" }],
        ...extra,
      },
    });
    expect(res.status).toBe(201);
    return slug;
  }
  async function hooked(events?: string[]) {
    const slug = await form();
    return { slug, ...(await hookReceiver(api, slug, receivers, events)) };
  }
  const submit = (slug: string, name = "Ada"): Promise<ApiResult> =>
    api("POST", `/api/forms/${slug}/submit`, { key: null, body: { fields: { name } } });
  const deliveries = async (slug: string, id: string) =>
    (await api("GET", `/api/forms/${slug}/webhooks/${id}/deliveries?limit=100`)).body;

  it("shows the secret once, lists webhooks without it, and signs a response.created the receiver verifies", async () => {
    const { slug, receiver, hook } = await hooked();
    expect(hook.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(hook.secret.slice(6), "base64").length).toBeGreaterThanOrEqual(24);
    const list = await api("GET", `/api/forms/${slug}/webhooks`);
    expect(list.body.webhooks).toEqual([
      {
        id: hook.id,
        url: receiver.url,
        events: ["response.created", "response.deleted"],
        created_at: expect.any(String),
        source: "api",
      },
    ]);
    expect(JSON.stringify(list.body)).not.toContain(hook.secret.slice(6));
    const sent = await submit(slug, "Ada <b>");
    expect(sent.status).toBe(201);
    // sent by the submit's own kick, not a sweep (how soon: bench/webhooks.ts)
    const [got] = await receiver.until((r) => r.length === 1);
    expect(got!.verified).toBe(true);
    expect(got!.headers["content-type"]).toBe("application/json");
    expect(Math.abs(Number(got!.timestamp) - Date.now() / 1000)).toBeLessThan(30);
    expect(got!.json).toEqual({
      type: "response.created",
      timestamp: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
      data: {
        form: { form_id: expect.any(String), slug, title: "Hooked <form>" },
        response: {
          id: sent.body.response_id,
          submitted_at: expect.stringMatching(/Z$/),
          payload: { name: "Ada <b>" },
          commit_sha: expect.stringMatching(/^[0-9a-f]{40}$/),
        },
      },
    });
    await expect
      .poll(async () => (await deliveries(slug, hook.id)).deliveries[0]?.status)
      .toBe("delivered");
    const log = await deliveries(slug, hook.id);
    expect(log.total).toBe(1);
    expect(log.deliveries[0]).toMatchObject({
      id: got!.id,
      event: "response.created",
      response_id: sent.body.response_id,
      attempts: 1,
      last_status: 204,
      last_error: null,
    });
    // a tampered body does not verify with the same headers (the receiver's check can fail)
    const { Webhook } = await import("standardwebhooks");
    expect(() =>
      new Webhook(hook.secret).verify(got!.body.replace("Ada", "Eve"), {
        "webhook-id": got!.id,
        "webhook-timestamp": got!.timestamp,
        "webhook-signature": got!.signature,
      }),
    ).toThrow();
  });

  it("sends webhook.test at once and answers the receiver's status", async () => {
    const { slug, receiver, hook } = await hooked();
    receiver.behave(() => 202);
    const res = await api("POST", `/api/forms/${slug}/webhooks/${hook.id}/test`);
    expect(res.body).toEqual({ delivered: true, status: 202 });
    expect(receiver.received[0]!.verified).toBe(true);
    expect(receiver.received[0]!.json).toMatchObject({
      type: "webhook.test",
      data: { webhook: { id: hook.id } },
    });
    receiver.behave(() => 418);
    const bad = await api("POST", `/api/forms/${slug}/webhooks/${hook.id}/test`);
    expect(bad.body).toMatchObject({ delivered: false, status: 418 });
  });

  it("delivers exactly one signed response.created per response for 200 concurrent submits (shared INSERTs included)", async () => {
    const { slug, receiver, hook } = await hooked(["response.created"]);
    // enough to share INSERTs many times over; the volume itself is bench/webhooks.ts's
    const n = 200;
    // the suite's short timeout would time out a busy receiver and count a redelivery
    s.ctx.config.webhooks.timeoutMs = 10_000;
    let shared = 0;
    const query = s.ctx.db.query.bind(s.ctx.db);
    s.ctx.db.query = ((text: string, params?: unknown[], options?: object) => {
      // the shared INSERT with deliveries: written (Postgres) or handed over without a row (PGlite)
      if (text.includes("insert into responses (id, form_id") && text.includes("join webhooks w"))
        shared++;
      return query(text, params, options);
    }) as typeof s.ctx.db.query;
    try {
      const results = await Promise.all(Array.from({ length: n }, (_, i) => submit(slug, `n${i}`)));
      expect(
        results.filter((r) => r.status !== 201).map((r) => `${r.status} ${r.body.code}`),
      ).toEqual([]);
      const ids = new Set(results.map((r) => r.body.response_id as string));
      expect(ids.size).toBe(n);
      // PGlite runs each statement to its end before the next request is read, so submits from
      // this one process rarely meet in a shared INSERT (bench/submit.ts's clients do)
      if (kind === "postgres") expect(shared).toBeGreaterThan(0);
      await receiver.until((r) => r.length >= n, 60_000);
      // nothing more arrives once every one is delivered
      await expect
        .poll(async () =>
          (await deliveries(slug, hook.id)).deliveries.every(
            (d: { status: string }) => d.status === "delivered",
          ),
        )
        .toBe(true);
      await new Promise((r) => setTimeout(r, 300));
      expect(receiver.received).toHaveLength(n);
      expect(receiver.received.every((r) => r.verified)).toBe(true);
      expect(new Set(receiver.received.map((r) => r.id)).size).toBe(n);
      expect(new Set(receiver.received.map((r) => r.json.data.response.id))).toEqual(ids);
      expect((await deliveries(slug, hook.id)).total).toBe(n);
      const [rows] = await s.ctx.db.query<{ n: number; responses: number }>(
        "select count(*)::int as n, count(distinct response_id)::int as responses from webhook_delivery_log where webhook_id = $1",
        [hook.id],
      );
      expect(rows).toEqual({ n, responses: n });
    } finally {
      s.ctx.config.webhooks.timeoutMs = 400;
      s.ctx.db.query = query;
    }
  });

  it("writes the delivery on the one-statement path too (email due, Idempotency-Key), once per response", async () => {
    const slug = await form({ notifications: { email: ["owner@example.com"] } });
    const { receiver } = await hookReceiver(api, slug, receivers);
    const send = () =>
      api("POST", `/api/forms/${slug}/submit`, {
        key: null,
        body: { fields: { name: "Idem" } },
        headers: { "idempotency-key": "same-one" },
      });
    const first = await send();
    const again = await send();
    expect(again.body.response_id).toBe(first.body.response_id);
    await receiver.until((r) => r.length === 1);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.json.data.response.id).toBe(first.body.response_id);
    const [mail] = await s.ctx.db.query<{ n: number }>(
      "select count(*)::int as n from outbox where response_id = $1",
      [first.body.response_id],
    );
    expect(mail!.n).toBe(1);
  });

  it("retries after a 500 and after a hang past the timeout, with the same webhook-id each time", async () => {
    const { slug, receiver, hook } = await hooked();
    receiver.behave((_, i) => (i === 1 ? 500 : i === 2 ? "hang" : 200));
    await submit(slug);
    const got = await receiver.until((r) => r.length === 3);
    expect(new Set(got.map((r) => r.id)).size).toBe(1);
    expect(got.every((r) => r.verified)).toBe(true);
    expect(got.map((r) => r.body)).toEqual([got[0]!.body, got[0]!.body, got[0]!.body]);
    await expect
      .poll(async () => (await deliveries(slug, hook.id)).deliveries[0])
      .toMatchObject({
        status: "delivered",
        attempts: 3,
        last_status: 200,
      });
    // each failed attempt is one log line naming the delivery (SPEC §22)
    const lines = logged.filter((l) => l.delivery_id === got[0]!.id);
    expect(lines).toEqual([
      expect.objectContaining({
        msg: `webhook delivery ${got[0]!.id} failed`,
        webhook_id: hook.id,
        form: slug,
        receiver: new URL(receiver.url).origin,
        attempt: 1,
        http_status: 500,
        next: "retry in 0.2 s",
      }),
      expect.objectContaining({
        attempt: 2,
        http_status: null,
        error: "no answer within 400 ms",
      }),
    ]);
  });

  it("marks a delivery failed after the last attempt of the schedule; retry queues it again", async () => {
    const { slug, receiver, hook } = await hooked();
    receiver.behave(() => 500);
    await submit(slug);
    await expect
      .poll(async () => (await deliveries(slug, hook.id)).deliveries[0]?.status, {
        timeout: 10_000,
      })
      .toBe("failed");
    const [failed] = (await deliveries(slug, hook.id)).deliveries;
    expect(failed).toMatchObject({
      attempts: 4,
      last_status: 500,
      last_error: expect.stringContaining("HTTP 500"),
    });
    expect(receiver.received).toHaveLength(4);
    expect(new Set(receiver.received.map((r) => r.id))).toEqual(new Set([failed.id]));
    const lines = logged.filter((l) => l.delivery_id === failed.id);
    expect(lines.map((l) => [l.attempt, l.http_status, l.next])).toEqual([
      [1, 500, "retry in 0.2 s"],
      [2, 500, "retry in 0.2 s"],
      [3, 500, "retry in 0.2 s"],
      [4, 500, "none: failed"],
    ]);
    receiver.behave(() => 200);
    const retry = await api(
      "POST",
      `/api/forms/${slug}/webhooks/${hook.id}/deliveries/${failed.id}/retry`,
    );
    expect(retry.status).toBe(202);
    await receiver.until((r) => r.length === 5);
    expect(receiver.received[4]!.id).toBe(failed.id);
    await expect
      .poll(async () => (await deliveries(slug, hook.id)).deliveries[0]?.status)
      .toBe("delivered");
  });

  it("writes no delivery for a form without webhooks, or for events a webhook did not ask for", async () => {
    const plain = await form();
    await submit(plain);
    const { slug, receiver } = await hooked(["response.deleted"]);
    await submit(slug);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received).toHaveLength(0);
    const [row] = await s.ctx.db.query<{ n: number }>(
      "select count(*)::int as n from webhook_deliveries d join webhooks w on w.id = d.webhook_id join forms f on f.id = w.form_id where f.slug = any($1)",
      [[plain, slug]],
    );
    expect(row!.n).toBe(0);
  });

  it("refuses bad input, an 11th webhook and another owner's key; deleting a webhook stops its deliveries", async () => {
    const { slug, receiver, hook } = await hooked();
    for (const body of [
      {},
      { url: "ftp://example.com/x" },
      { url: "not a url" },
      { url: receiver.url, events: ["nope"] },
    ]) {
      const res = await api("POST", `/api/forms/${slug}/webhooks`, { body });
      expect(res.status).toBe(400);
      expect(["invalid_request", "validation_failed"]).toContain(res.body.code);
    }
    for (let i = 0; i < 9; i++)
      expect(
        (
          await api("POST", `/api/forms/${slug}/webhooks`, {
            body: { url: `${receiver.url}?${i}` },
          })
        ).status,
      ).toBe(201);
    const eleventh = await api("POST", `/api/forms/${slug}/webhooks`, {
      body: { url: receiver.url },
    });
    expect(eleventh.status).toBe(409);
    const other = client(s.url, await s.otherKey());
    expect((await other("GET", `/api/forms/${slug}/webhooks`)).status).toBe(403);
    expect((await other("DELETE", `/api/forms/${slug}/webhooks/${hook.id}`)).status).toBe(403);
    expect((await api("DELETE", `/api/forms/${slug}/webhooks/${crypto.randomUUID()}`)).status).toBe(
      404,
    );
    const { webhooks } = (await api("GET", `/api/forms/${slug}/webhooks`)).body;
    for (const w of webhooks)
      expect((await api("DELETE", `/api/forms/${slug}/webhooks/${w.id}`)).status).toBe(204);
    await submit(slug);
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.received).toHaveLength(0);
    expect((await api("GET", `/api/forms/${slug}/webhooks/${hook.id}/deliveries`)).status).toBe(
      404,
    );
  });

  it("refuses private receivers in production mode, at create and again at delivery", async () => {
    const { slug, receiver, hook } = await hooked();
    s.ctx.config.webhooks.allowPrivate = false;
    try {
      for (const url of [
        receiver.url,
        "http://localhost:9/x",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]/x",
        "http://10.1.2.3/x",
        "http://[::ffff:192.168.0.1]/x",
        "http://metadata.google.internal/x",
      ]) {
        const res = await api("POST", `/api/forms/${slug}/webhooks`, { body: { url } });
        expect(res.status, url).toBe(400);
        expect(res.body.code).toBe("invalid_request");
      }
      // the webhook made before now points at a private address: delivery refuses to connect
      await submit(slug);
      await expect
        .poll(async () => (await deliveries(slug, hook.id)).deliveries[0]?.last_error ?? null)
        .toMatch(/private/);
      const test = await api("POST", `/api/forms/${slug}/webhooks/${hook.id}/test`);
      expect(test.body).toMatchObject({ delivered: false, status: null });
      expect(receiver.received).toHaveLength(0);
    } finally {
      s.ctx.config.webhooks.allowPrivate = true;
    }
  });
});
