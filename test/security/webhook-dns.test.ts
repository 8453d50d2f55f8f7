// Tenth review (2026-11-28, REVIEW-10A): a webhook's host was resolved by `dns.lookup`, which is
// getaddrinfo on libuv's thread pool, where DNS may hold two of the four threads; every name the
// process resolves waits for those two. One account's webhook to a name whose DNS never answers
// (its own domain, the name server gone: ~10 s a lookup) and 20 submits to its form queued minutes
// of lookups: another account's webhooks were not sent, and with DATABASE_URL naming a host, new
// Postgres connections (3 s to connect) failed, so 10 of 12 keyed requests answered 503. Hosts
// are now resolved by DNS queries on the event loop (c-ares), which hold no thread; a name the DNS
// does not know is looked up by getaddrinfo only where private receivers are allowed, one at a
// time. What the thread pool is asked is watched here (async_hooks: GETADDRINFOREQWRAP).
import { createHook } from "node:async_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type Receiver, startReceiver } from "../webhooks/receiver.ts";

/** getaddrinfo requests of this process: how many were made, and the most at once. */
function watchGetaddrinfo() {
  const open = new Set<number>();
  const seen = { made: 0, most: 0 };
  const hook = createHook({
    init(id, type) {
      if (type !== "GETADDRINFOREQWRAP") return;
      seen.made++;
      open.add(id);
      seen.most = Math.max(seen.most, open.size);
    },
    // the answer has come: its callback runs (destroy is emitted later, in a batch)
    before(id) {
      open.delete(id);
    },
  }).enable();
  return { seen, stop: () => hook.disable() };
}

const form = async (api: ReturnType<typeof client>, slug: string) => {
  const made = await api("POST", "/api/forms", {
    body: { title: slug, slug, humanness: false, fields: [{ id: "a", type: "text" }] },
  });
  expect(made.status).toBe(201);
};

describe.each(DB_KINDS)("webhook hosts and the process's DNS threads (%s)", (kind) => {
  let s: TestServer;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
    s = await startTestServer({
      db: kind,
      env: { FORMDOWN_WEBHOOK_TIMEOUT_MS: "5000", FORMDOWN_WEBHOOK_BACKOFF: "600" },
      webhookSender: true,
    });
  });
  afterAll(async () => {
    await receiver?.close();
    await s?.close();
  });

  it("takes at most one getaddrinfo at a time, for names the DNS does not know", async () => {
    const other = client(s.url, await s.otherKey());
    await form(other, "unknown-hosts");
    const hooks: string[] = [];
    for (let i = 0; i < 6; i++) {
      const made = await other("POST", "/api/forms/unknown-hosts/webhooks", {
        body: { url: `http://r${i}-${Date.now()}.invalid/hook` },
      });
      expect(made.status).toBe(201);
      hooks.push(made.body.id);
    }
    const me = client(s.url, s.apiKey);
    await form(me, "mine");
    const port = new URL(receiver.url).port;
    const mine = await me("POST", "/api/forms/mine/webhooks", {
      body: { url: `http://localhost:${port}/hook` },
    });
    expect(mine.status).toBe(201);

    const watch = watchGetaddrinfo();
    try {
      const submit = (api: typeof me, slug: string) =>
        api("POST", `/api/forms/${slug}/submit`, { key: null, body: { fields: { a: "x" } } });
      expect((await submit(other, "unknown-hosts")).status).toBe(201);
      expect((await submit(me, "mine")).status).toBe(201);
      await receiver.until((r) => r.length === 1, 20_000);
      // every one of the six was tried, and failed on its name
      const tried = async () => {
        let n = 0;
        for (const id of hooks) {
          const log = await other("GET", `/api/forms/unknown-hosts/webhooks/${id}/deliveries`);
          if (log.body.deliveries[0]?.last_error) n++;
        }
        return n;
      };
      await expect.poll(tried, { timeout: 30_000 }).toBe(6);
      expect(watch.seen.most).toBeLessThanOrEqual(1);
    } finally {
      watch.stop();
    }
  });

  it("creates no getaddrinfo request in production", async () => {
    const prod = await startTestServer({
      db: kind,
      env: { FORMDOWN_WEBHOOK_PRIVATE: "0" },
    });
    const watch = watchGetaddrinfo();
    try {
      const api = client(prod.url, prod.apiKey);
      await form(api, "checked");
      const refused = await api("POST", "/api/forms/checked/webhooks", {
        body: { url: `http://r-${Date.now()}.invalid/hook` },
      });
      expect(refused.status).toBe(400);
      const local = await api("POST", "/api/forms/checked/webhooks", {
        body: { url: "http://localhost/hook" },
      });
      expect(local.status).toBe(400);
      expect(watch.seen.made).toBe(0);
    } finally {
      watch.stop();
      await prod.close();
    }
  });
});
