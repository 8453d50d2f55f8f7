// Tenth review (2026-11-28, REVIEW-10A): the outbox sender looks for due digests once a minute.
// It read the whole definition of every form with a digest into the process, then wrote each
// form's row by a statement of its own, in one turn of PGlite's event loop: one account's 300
// digest forms of 400 KB (300 ordinary creates, within the API rate) held the loop 2-3.7 s every
// minute from then on, and more with more forms. Now one statement per kind of digest writes the
// rows, and no definition comes back: the same 300 forms take about 170 ms.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { enqueueDigests } from "../../functions/mail/digest.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const FORMS = 12;

describe.each(DB_KINDS)("looking for due digests (%s)", (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    const other = client(s.url, await s.otherKey());
    for (let i = 0; i < FORMS; i++) {
      const made = await other("POST", "/api/forms", {
        body: {
          title: `d${i}`,
          slug: `d${i}`,
          humanness: false,
          body: "Lorem ipsum dolor sit amet. ".repeat(3000),
          notifications: { email: ["owner@example.com"], digest: "daily", digest_empty: true },
          fields: [{ id: "a", type: "text" }],
        },
      });
      expect(made.status).toBe(201);
    }
    // older than the day reported
    await s.ctx.db.query("update forms set created_at = now() - interval '3 days'");
  });
  afterAll(() => s?.close());

  it("costs a statement per kind of digest, however many forms, and reads no definition", async () => {
    const query = s.ctx.db.query.bind(s.ctx.db);
    let statements = 0;
    let read = 0;
    s.ctx.db.query = (async (text: string, params?: unknown[], options?: object) => {
      statements++;
      const rows = await query(text, params, options);
      read += JSON.stringify(rows).length;
      return rows;
    }) as typeof s.ctx.db.query;
    try {
      expect(await enqueueDigests(s.ctx)).toBe(FORMS);
      expect(await enqueueDigests(s.ctx)).toBe(0);
    } finally {
      s.ctx.db.query = query;
    }
    expect(statements).toBeLessThanOrEqual(4);
    // the rows' ids, not the forms' 84 KB bodies
    expect(read).toBeLessThan(100 * FORMS);
    const [row] = await s.ctx.db.query<{ n: number; recipients: unknown }>(
      "select count(*)::int as n, min(recipients::text) as recipients from outbox where kind = 'digest'",
    );
    expect(row).toEqual({ n: FORMS, recipients: '["owner@example.com"]' });
  });
});
