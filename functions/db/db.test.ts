import { afterAll, describe, expect, it } from "vitest";
import { openPostgres, preparedStatements } from "./db.ts";

describe("prepared statements", () => {
  it("are off behind a transaction pooler and when the URL says so", () => {
    expect(preparedStatements("postgres://u@db.example.com:5432/app")).toBe(true);
    expect(preparedStatements("postgres://u@pooler.supabase.com:6543/postgres")).toBe(false);
    expect(preparedStatements("postgres://u@h:5432/app?pgbouncer=true")).toBe(false);
    expect(preparedStatements("postgres://u@h:5432/app?prepare=false")).toBe(false);
    expect(preparedStatements("postgres://u@h:6543/app?prepare=true")).toBe(true);
  });
});

const url = process.env.TEST_DATABASE_URL;
describe.each(url ? [url] : [])("prepared statements on Postgres (%s)", (base) => {
  // one connection each, so the statement lands where pg_prepared_statements can see it
  const plain = openPostgres(base, 1);
  const pooled = openPostgres(`${base}${base.includes("?") ? "&" : "?"}prepare=false`, 1);
  afterAll(() => Promise.all([plain.close(), pooled.close()]));
  const kept = (db: typeof plain, text: string) =>
    db.query<{ n: number }>(
      "select count(*)::int as n from pg_prepared_statements where statement = $1",
      [text],
    );

  it("keeps a hot statement prepared, and only when asked and allowed", async () => {
    const hot = "select $1::int + 1 as hot";
    const cold = "select $1::int + 2 as cold";
    for (let i = 0; i < 3; i++) {
      expect(await plain.query(hot, [i], { prepare: true })).toEqual([{ hot: i + 1 }]);
      expect(await plain.query(cold, [i])).toEqual([{ cold: i + 2 }]);
      expect(await pooled.query(hot, [i], { prepare: true })).toEqual([{ hot: i + 1 }]);
    }
    expect(await kept(plain, hot)).toEqual([{ n: 1 }]);
    expect(await kept(plain, cold)).toEqual([{ n: 0 }]);
    expect(await kept(pooled, hot)).toEqual([{ n: 0 }]);
  });
});
