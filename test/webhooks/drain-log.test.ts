// The scheduled drain (serverless, `formdown drain`) says each failed attempt in one log line,
// as the Node server's sender does (SPEC §22): the delivery's id, the receiver's origin, its
// answer and what comes next.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Log } from "../../functions/context.ts";
import { drainWebhooks } from "../../functions/webhooks/drain.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { hookReceiver, type Receiver } from "./receiver.ts";

describe.each(DB_KINDS)("the drain's log of failed attempts (%s)", (kind) => {
  let s: TestServer;
  const receivers: Receiver[] = [];
  beforeAll(async () => {
    // no background sender: the drain below sends
    s = await startTestServer({ db: kind, env: { FORMDOWN_WEBHOOK_BACKOFF: "5,60" } });
  });
  afterAll(async () => {
    for (const r of receivers) await r.close();
    await s?.close();
  });

  it("logs one line per failed attempt, none for a delivered one", async () => {
    const api = client(s.url, s.apiKey);
    const slug = `drained-${kind}`;
    await api("POST", "/api/forms", {
      body: { title: "Drained", slug, humanness: false, fields: [{ id: "n", type: "text" }] },
    });
    const { receiver, hook } = await hookReceiver(api, slug, receivers);
    receiver.behave((_, i) => (i === 1 ? 503 : 204));
    for (const n of ["a", "b"])
      await api("POST", `/api/forms/${slug}/submit`, { key: null, body: { fields: { n } } });
    const lines: ({ msg: string } & Record<string, unknown>)[] = [];
    const log: Log = { info: () => {}, error: (msg, _e, fields) => lines.push({ msg, ...fields }) };
    const counts = await drainWebhooks({ ...s.ctx, log });
    expect(counts).toEqual({ delivered: 1, retrying: 1, failed: 0 });
    const refused = receiver.received[0]!;
    expect(lines).toEqual([
      {
        msg: `webhook delivery ${refused.id} failed`,
        delivery_id: refused.id,
        webhook_id: hook.id,
        form: slug,
        event: "response.created",
        response_id: refused.json.data.response.id,
        receiver: new URL(receiver.url).origin,
        attempt: 1,
        http_status: 503,
        error: expect.stringContaining("503"),
        next: "retry in 5 s",
      },
    ]);
  });
});
