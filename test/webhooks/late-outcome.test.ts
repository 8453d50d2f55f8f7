// A server stops without waiting out an attempt whose receiver still hangs (its drain time is
// up): the attempt ends after the database is closed, and the sender must leave it at that —
// its lease (Postgres) or the recovery at the next start (PGlite) sends the delivery again. It
// used to write the outcome to the closed database, and kept retrying for the process's life.
import { afterAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { hookReceiver, type Receiver } from "./receiver.ts";

describe.each(DB_KINDS)("an attempt that ends after its server stopped (%s)", (kind) => {
  let s: TestServer;
  const receivers: Receiver[] = [];
  afterAll(async () => {
    for (const r of receivers) await r.close();
    await s?.close();
  });

  it("sends nothing to the closed database and logs nothing", async () => {
    const errors: string[] = [];
    s = await startTestServer({
      db: kind,
      webhookSender: true,
      env: { FORMDOWN_WEBHOOK_TIMEOUT_MS: "60000" },
      log: { info() {}, error: (m: string) => void errors.push(m) },
    });
    const api = client(s.url, s.apiKey);
    const slug = `late-${kind}`;
    await api("POST", "/api/forms", {
      body: { title: "Late", slug, humanness: false, fields: [{ id: "name", type: "text" }] },
    });
    const { receiver } = await hookReceiver(api, slug, receivers);
    receiver.behave(() => "hang");
    const sent = await api("POST", `/api/forms/${slug}/submit`, {
      key: null,
      body: { fields: { name: "Ada" } },
    });
    expect(sent.status).toBe(201);
    await receiver.until((r) => r.length === 1);
    // the test server's drain time is 0: the stop does not wait for the hanging attempt
    await s.server.close();
    const db = s.ctx.db;
    const statements: string[] = [];
    const query = db.query.bind(db);
    db.query = ((sql: string, ...rest: unknown[]) => {
      statements.push(sql);
      return (query as (...a: unknown[]) => Promise<unknown[]>)(sql, ...rest);
    }) as typeof db.query;
    // the receiver goes away: the attempt ends now, its server stopped
    await receiver.close();
    // longer than the sender's gap between writes (250 ms on PGlite, less on Postgres)
    await new Promise((r) => setTimeout(r, 600));
    expect(statements).toEqual([]);
    expect(errors).toEqual([]);
  });
});
