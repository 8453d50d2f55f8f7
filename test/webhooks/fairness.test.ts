// A hanging receiver holds at most its share of the sender's slots (receiver-slots.ts perReceiver, all
// but a quarter): the other webhooks' deliveries go on meanwhile instead of waiting for its
// timeouts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { perReceiver, perReceiverLine } from "../../functions/webhooks/receiver-slots.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { hookReceiver, type Receiver } from "./receiver.ts";

const CONCURRENCY = 8;
// long enough that no hanging attempt times out while the test runs, however busy the machine
const TIMEOUT_MS = 60_000;

describe.each(DB_KINDS)("one hanging receiver among others (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    s = await startTestServer({
      db: kind,
      env: {
        FORMDOWN_WEBHOOK_CONCURRENCY: String(CONCURRENCY),
        FORMDOWN_WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      },
      webhookSender: true,
    });
    api = client(s.url, s.apiKey);
  });
  afterAll(async () => {
    for (const r of receivers) await r.close();
    await s?.close();
  });

  async function hooked(slug: string) {
    const created = await api("POST", "/api/forms", {
      body: { title: "Fair", slug, humanness: false, fields: [{ id: "name", type: "text" }] },
    });
    expect(created.status).toBe(201);
    const { receiver, hook } = await hookReceiver(api, slug, receivers);
    return { receiver, hook: hook.id };
  }
  const submit = (slug: string, name: string) =>
    api("POST", `/api/forms/${slug}/submit`, { key: null, body: { fields: { name } } });

  it("keeps slots for the others while one receiver hangs", async () => {
    const { receiver: stuck, hook } = await hooked(`fair-stuck-${kind}`);
    stuck.behave(() => "hang");
    const { receiver: fine } = await hooked(`fair-fine-${kind}`);
    // more than all the slots, to the receiver that never answers
    for (let i = 0; i < CONCURRENCY * 2; i++)
      expect((await submit(`fair-stuck-${kind}`, `stuck ${i}`)).status).toBe(201);
    await stuck.until((r) => r.length >= perReceiver(CONCURRENCY));

    expect((await submit(`fair-fine-${kind}`, "Ada")).status).toBe(201);
    const [got] = await fine.until((r) => r.length === 1, TIMEOUT_MS);
    // delivered while every hanging attempt still held its slot: none had timed out to free one
    expect(stuck.givenUp()).toBe(0);
    expect(got!.verified).toBe(true);
    expect(got!.json.data.response.payload).toEqual({ name: "Ada" });
    // the hanging receiver never had more than its share at once
    expect(stuck.received.length).toBe(perReceiver(CONCURRENCY));
    // its share in flight and as many in line (taken from the submit, first attempt counted);
    // the rest were written due for a claim, and no claim takes them while it is saturated. On
    // PGlite those taken have no row until their outcome is written (handover.ts withoutRows)
    const log = await api("GET", `/api/forms/fair-stuck-${kind}/webhooks/${hook}/deliveries`);
    const attempts = (log.body.deliveries as { status: string; attempts: number }[]).map(
      (d) => `${d.status} ${d.attempts}`,
    );
    const taken = perReceiver(CONCURRENCY) + perReceiverLine(CONCURRENCY);
    expect(attempts.sort()).toEqual([
      ...Array(CONCURRENCY * 2 - taken).fill("pending 0"),
      ...Array(kind === "pglite" ? 0 : taken).fill("pending 1"),
    ]);
  });
});
