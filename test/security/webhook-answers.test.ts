// Ninth review (2026-11-28, REVIEW-9A): the webhook sender writes the outcomes of many attempts,
// every account's, in one statement, and keeps a failed answer's first bytes as `last_error`. An
// account whose receiver answered `500` with a NUL in its body (`a\0b`) made that statement fail
// (`invalid byte sequence for encoding "UTF8": 0x00`) at every retry: no outcome of the process
// was written any more, so another account's delivered webhooks stayed `pending` and were sent
// again at each lease's end (5, then 10, then 15 times the same five events), and the outcomes
// waiting in memory grew with every resend. The NUL is now dropped from the text kept.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { hookReceiver, type Receiver } from "../webhooks/receiver.ts";

describe.each(DB_KINDS)("a receiver's answer in the delivery log (%s)", (kind) => {
  let s: TestServer;
  const receivers: Receiver[] = [];
  let nulHits = 0;
  const nul = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      nulHits++;
      res.writeHead(500).end(Buffer.from([0x61, 0, 0x62]));
    });
  });
  beforeAll(async () => {
    await new Promise<void>((r) => nul.listen(0, "127.0.0.1", r));
    s = await startTestServer({
      db: kind,
      env: { FORMDOWN_WEBHOOK_TIMEOUT_MS: "2000", FORMDOWN_WEBHOOK_BACKOFF: "0.2,0.2,0.2" },
      webhookSender: true,
    });
  });
  afterAll(async () => {
    for (const r of receivers) await r.close();
    nul.closeAllConnections();
    nul.close();
    await s?.close();
  });

  const form = async (api: ReturnType<typeof client>, slug: string) => {
    const made = await api("POST", "/api/forms", {
      body: { title: slug, slug, humanness: false, fields: [{ id: "a", type: "text" }] },
    });
    expect(made.status).toBe(201);
  };
  const submit = (api: ReturnType<typeof client>, slug: string) =>
    api("POST", `/api/forms/${slug}/submit`, { key: null, body: { fields: { a: "x" } } });

  it("does not stop the delivery log of other accounts", async () => {
    const other = client(s.url, await s.otherKey());
    await form(other, "nul-answer");
    const port = (nul.address() as AddressInfo).port;
    const bad = await other("POST", "/api/forms/nul-answer/webhooks", {
      body: { url: `http://127.0.0.1:${port}/hook` },
    });
    expect(bad.status).toBe(201);
    expect((await submit(other, "nul-answer")).status).toBe(201);
    await expect.poll(() => nulHits, { timeout: 20_000 }).toBeGreaterThan(0);

    const me = client(s.url, s.apiKey);
    await form(me, "mine");
    const { receiver, hook } = await hookReceiver(me, "mine", receivers);
    for (let i = 0; i < 3; i++) expect((await submit(me, "mine")).status).toBe(201);
    const statuses = async () =>
      (await me("GET", `/api/forms/mine/webhooks/${hook.id}/deliveries?limit=10`)).body.deliveries
        .map((d: { status: string }) => d.status)
        .join();
    await expect.poll(statuses, { timeout: 20_000 }).toBe("delivered,delivered,delivered");
    expect(receiver.received).toHaveLength(3);
    // the other account's log says what its receiver answered, without the NUL
    await expect
      .poll(
        async () =>
          (await other("GET", `/api/forms/nul-answer/webhooks/${bad.body.id}/deliveries`)).body
            .deliveries[0]?.last_error,
        { timeout: 20_000 },
      )
      .toBe("HTTP 500: ab");
  });
});
