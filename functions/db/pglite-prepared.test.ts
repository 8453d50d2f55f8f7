import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, wrapPglite } from "./db.ts";

describe("prepared statements on PGlite", () => {
  let pg: PGlite;
  let db: Db;
  const hot = { prepare: true };
  const kept = async (text: string) =>
    (
      await pg.query<{ n: number }>(
        "select count(*)::int as n from pg_prepared_statements where statement = $1",
        [text],
      )
    ).rows[0]?.n;

  beforeAll(async () => {
    pg = await PGlite.create();
    db = wrapPglite(pg);
    await db.exec(`create table t (id int primary key, doc jsonb, at timestamptz, tags text[],
                                   big bigint, ok boolean, note text)`);
  });
  afterAll(async () => {
    if (!pg.closed) await db.close();
  });

  it("answers a hot statement as the unnamed path does, typed, and keeps it prepared", async () => {
    const insert = `insert into t (id, doc, at, tags, big, ok, note) values ($1, $2, $3, $4, $5, $6, $7)
                    returning *`;
    const row = (id: number) => [
      id,
      { a: [1, "x"] },
      new Date(Date.UTC(2026, 0, id)),
      ["p", "q,r"],
      2 ** 40,
      id % 2 === 0,
      null,
    ];
    const plain = await db.query(insert, row(1));
    const prepared = [await db.query(insert, row(2), hot), await db.query(insert, row(3), hot)];
    expect(prepared[1]).toEqual([
      {
        id: 3,
        doc: { a: [1, "x"] },
        at: "2026-01-03T00:00:00.000Z",
        tags: ["p", "q,r"],
        big: 2 ** 40,
        ok: false,
        note: null,
      },
    ]);
    expect(Object.keys(prepared[0]![0]!)).toEqual(Object.keys(plain[0]!));
    expect(await kept(insert)).toBe(1);
    expect(await kept("select id from t where id = $1")).toBe(0);
  });

  it("throws the database's error with its code, and the next call runs", async () => {
    const insert = "insert into t (id) values ($1) returning id";
    await db.query(insert, [10], hot);
    await expect(db.query(insert, [10], hot)).rejects.toMatchObject({ code: "23505" });
    expect(await db.query(insert, [11], hot)).toEqual([{ id: 11 }]);
  });

  it("waits for a transaction under way rather than running inside it", async () => {
    const insert = "insert into t (id) values ($1) returning id";
    let release = () => {};
    const held = new Promise<void>((r) => {
      release = r;
    });
    let begun = () => {};
    const inside = new Promise<void>((r) => {
      begun = r;
    });
    const tx = pg.transaction(async (t) => {
      await t.query("insert into t (id) values (20)");
      begun();
      await held;
      await t.rollback();
    });
    // the transaction holds the database from here until its rollback
    await inside;
    const outside = db.query(insert, [21], hot);
    release();
    await tx;
    await outside;
    expect(await db.query("select id from t where id in (20, 21) order by id")).toEqual([
      { id: 21 },
    ]);
  });

  it("prepares again when a table's columns change under a kept plan", async () => {
    const all = "select * from t where id = $1";
    expect(Object.keys((await db.query(all, [21], hot))[0]!)).toContain("note");
    await db.exec("alter table t drop column note");
    expect(Object.keys((await db.query(all, [21], hot))[0]!)).not.toContain("note");
  });

  it("closes the statement used longest ago beyond its 200", async () => {
    const first = "select $1::int + 0 as n";
    for (let i = 0; i <= 200; i++)
      expect(await db.query(`select $1::int + ${i} as n`, [1], hot)).toEqual([{ n: 1 + i }]);
    const { rows } = await pg.query<{ n: number }>(
      "select count(*)::int as n from pg_prepared_statements",
    );
    expect(rows[0]!.n).toBeLessThanOrEqual(200);
    expect(await kept(first)).toBe(0);
    expect(await kept("select $1::int + 200 as n")).toBe(1);
  });

  it("says the database is closed once it is, as the unnamed path does", async () => {
    const statement = "select $1::int as n";
    expect(await db.query(statement, [1], hot)).toEqual([{ n: 1 }]);
    await db.close();
    await expect(db.query("select 1")).rejects.toThrow("PGlite is closed");
    await expect(db.query(statement, [2], hot)).rejects.toThrow("PGlite is closed");
  });
});
