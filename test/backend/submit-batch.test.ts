// Concurrent plain submits share one INSERT (functions/services/submit-write.ts): every caller
// still gets its own row, numbered once, with its own answers, and a bad row fails alone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../functions/db/db.ts";
import { formSequence } from "../../functions/services/submit-sql.ts";
import { responseWriter } from "../../functions/services/submit-write.ts";
import { DB_KINDS, freshDb } from "../helpers/db.ts";

describe.each(DB_KINDS)("shared INSERTs for concurrent submits (%s)", (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  let statements = 0;
  let account: string;
  let n = 0;

  /** A form as a deploy would insert it; the trigger gives it its sequence. */
  async function newForm(): Promise<string> {
    const [row] = await db.query<{ id: string }>(
      `insert into forms (account_id, slug, short_code, title, type, definition)
       values ($1, $2, $3, 'Batch', 'form', '{}'::jsonb) returning id`,
      [account, `batch-${kind}-${n}`, `BATCH${n++}`],
    );
    return row!.id;
  }
  const plain = (formId: string, payload: unknown, score: unknown = null) => ({
    row: {
      id: crypto.randomUUID(),
      form_id: formId,
      payload: JSON.stringify(payload),
      score: score === null ? null : JSON.stringify(score),
    },
    sequence: formSequence(formId),
  });

  /** While set, statements wait for it before they reach the database. */
  let hold: Promise<void> | null = null;

  beforeAll(async () => {
    const fresh = await freshDb(kind);
    drop = fresh.drop;
    const inner = fresh.db;
    // counts the statements that reach the database
    db = {
      ...inner,
      async query(text, params, options) {
        statements++;
        if (hold) await hold;
        return inner.query(text, params, options);
      },
    };
    const [row] = await db.query<{ id: string }>(
      "insert into accounts (handler) values ('batcher') returning id",
    );
    account = row!.id;
  });
  afterAll(() => drop?.());

  it("writes 60 concurrent submits in a few statements, each row its own and numbered once", async () => {
    const form = await newForm();
    const insert = responseWriter(db, { parallel: 1, maxBatch: 64 });
    const awkward = ['quote " and \\ backslash', "{braces}, commas", "ünïcødé ✓", "", "NULL"];
    statements = 0;
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        insert(plain(form, { i, text: awkward[i % awkward.length] }, i % 2 ? { points: i } : null)),
      ),
    );
    expect(statements).toBeLessThan(10);
    expect(new Set(results.map((r) => r!.id)).size).toBe(60);
    expect(results.map((r) => r!.seq).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 60 }, (_, i) => i + 1),
    );
    const stored = await db.query<{ id: string; seq: number; payload: unknown; score: unknown }>(
      "select id, seq, payload, score from responses where form_id = $1",
      [form],
    );
    const byId = new Map(stored.map((r) => [r.id, r]));
    results.forEach((r, i) => {
      expect(byId.get(r!.id)).toEqual({
        id: r!.id,
        seq: r!.seq,
        payload: { i, text: awkward[i % awkward.length] },
        score: i % 2 ? { points: i } : null,
      });
    });
  });

  it("sends each row alone with a batch size of 1", async () => {
    const form = await newForm();
    const insert = responseWriter(db, { parallel: 1, maxBatch: 1 });
    statements = 0;
    await Promise.all(Array.from({ length: 5 }, (_, i) => insert(plain(form, { i }))));
    expect(statements).toBe(5);
  });

  it("fails only the submits of a form deleted meanwhile, and keeps the others", async () => {
    const kept = await newForm();
    const gone = await newForm();
    await db.query("delete from forms where id = $1", [gone]);
    const insert = responseWriter(db, { parallel: 1, maxBatch: 64 });
    const outcomes = await Promise.allSettled(
      Array.from({ length: 9 }, (_, i) => insert(plain(i % 3 === 1 ? gone : kept, { i }))),
    );
    outcomes.forEach((o, i) => {
      expect(o.status).toBe(i % 3 === 1 ? "rejected" : "fulfilled");
    });
    const [counts] = await db.query<{ kept: number; gone: number }>(
      `select count(*) filter (where form_id = $1)::int as kept,
              count(*) filter (where form_id = $2)::int as gone from responses`,
      [kept, gone],
    );
    expect(counts).toEqual({ kept: 6, gone: 0 });
  });

  it("answers a submit whose time ran out in line with unavailable, and never sends it", async () => {
    const form = await newForm();
    const insert = responseWriter(db, { parallel: 1, maxBatch: 64 });
    let release = () => {};
    hold = new Promise((r) => {
      release = r;
    });
    statements = 0;
    const first = insert(plain(form, { i: 1 }));
    await new Promise((r) => setTimeout(r, 20));
    // queued behind the held statement, to be answered within 50 ms
    const second = insert({ ...plain(form, { i: 2 }), answerBy: Date.now() + 50 }).catch(
      (e: unknown) => e,
    );
    await new Promise((r) => setTimeout(r, 100));
    hold = null;
    release();
    await first;
    expect(await second).toMatchObject({ failure: { code: "unavailable" } });
    expect(statements).toBe(1);
    const rows = await db.query("select payload from responses where form_id = $1", [form]);
    expect(rows).toEqual([{ payload: { i: 1 } }]);
  });
});
