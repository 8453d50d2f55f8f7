// Eleventh review (2026-11-28, REVIEW-11A): erasing a range of responses (`DELETE
// …/responses?until=`, MCP `delete_responses`) was one statement, which wrote each webhook's
// `response.deleted` too, and on PGlite no statement lets the event loop turn. One admin request
// on a form of 20,000 responses with ten such webhooks held the loop 36 s for every account.
// It now erases 200 responses a statement, each batch in a turn of its own. Deleting the form
// cascaded to all its responses in one statement too (50,000: 1.4 s); they now go first, 2,000 a
// statement.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const RESPONSES = 1000;
const HOOKS = 10;

describe.each(DB_KINDS)("erasing a range of responses (%s)", (kind) => {
  let s: TestServer;
  let me: ReturnType<typeof client>;
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    me = client(s.url, s.apiKey);
    const made = await me("POST", "/api/forms", {
      body: { title: "Many", slug: "many", humanness: false, fields: [{ id: "a", type: "text" }] },
    });
    expect(made.status).toBe(201);
    for (let i = 0; i < HOOKS; i++) {
      const hook = await me("POST", "/api/forms/many/webhooks", {
        body: { url: `http://127.0.0.1:9/h${i}`, events: ["response.deleted"] },
      });
      expect(hook.status).toBe(201);
    }
    for (let i = 0; i < 5; i++) {
      const sent = await me("POST", "/api/forms/many/submit", {
        key: null,
        body: { fields: { a: `answer ${i}` } },
      });
      expect(sent.status).toBe(201);
    }
    // the rest as copies of those (ordinary submits, made here in one statement)
    await s.ctx.db.query(
      `insert into responses (form_id, seq, submitted_at, payload, test, version)
       select form_id, seq + g * 10, submitted_at, payload, test, version
         from responses, generate_series(1, $1::int) g`,
      [RESPONSES / 5 - 1],
    );
  }, 120_000);
  afterAll(() => s?.close());

  it("erases 200 a statement, and all of them", async () => {
    const query = s.ctx.db.query.bind(s.ctx.db);
    const erased: number[] = [];
    s.ctx.db.query = (async (text: string, params?: unknown[], options?: object) => {
      const rows = await query(text, params, options);
      if (/delete from responses/.test(text))
        erased.push(Number((rows as { deleted?: number }[])[0]?.deleted ?? rows.length));
      return rows;
    }) as typeof s.ctx.db.query;
    let answer: Awaited<ReturnType<typeof me>>;
    try {
      answer = await me("DELETE", "/api/forms/many/responses?until=2999-01-01T00:00:00Z");
    } finally {
      s.ctx.db.query = query;
    }
    expect([answer.status, answer.body]).toEqual([200, { deleted: RESPONSES }]);
    expect(Math.max(...erased)).toBeLessThanOrEqual(200);
    const [left] = await s.ctx.db.query<{ responses: number; told: number }>(
      `select (select count(*) from responses)::int as responses,
              (select count(*) from webhook_deliveries where event = 'response.deleted')::int as told`,
    );
    expect(left).toEqual({ responses: 0, told: RESPONSES * HOOKS });
  }, 120_000);

  it("deletes a form's responses 2,000 a statement before the form", async () => {
    const made = await me("POST", "/api/forms", {
      body: { title: "Gone", slug: "gone", humanness: false, fields: [{ id: "a", type: "text" }] },
    });
    expect(made.status).toBe(201);
    const sent = await me("POST", "/api/forms/gone/submit", {
      key: null,
      body: { fields: { a: "one" } },
    });
    expect(sent.status).toBe(201);
    await s.ctx.db.query(
      `insert into responses (form_id, seq, submitted_at, payload, test, version)
       select form_id, seq + g, submitted_at, payload, test, version
         from responses, generate_series(1, 4499) g where form_id = $1`,
      [made.body.form_id],
    );
    const query = s.ctx.db.query.bind(s.ctx.db);
    const erased: number[] = [];
    s.ctx.db.query = (async (text: string, params?: unknown[], options?: object) => {
      const rows = await query(text, params, options);
      if (/delete from responses/.test(text))
        erased.push(Number((rows as { n?: number }[])[0]?.n ?? rows.length));
      return rows;
    }) as typeof s.ctx.db.query;
    let answer: Awaited<ReturnType<typeof me>>;
    try {
      answer = await me("DELETE", "/api/forms/gone");
    } finally {
      s.ctx.db.query = query;
    }
    expect(answer.status).toBe(204);
    expect(erased.reduce((a, b) => a + b, 0)).toBe(4500);
    expect(Math.max(...erased)).toBeLessThanOrEqual(2000);
    const [left] = await s.ctx.db.query<{ n: number }>(
      "select count(*)::int as n from responses where form_id = $1",
      [made.body.form_id],
    );
    expect(left?.n).toBe(0);
  }, 120_000);
});
