// The limiter decides in memory and shares counts in one statement per flush; a real database
// (PGlite, and Postgres when TEST_DATABASE_URL is set) holds the shared rows.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DB_KINDS, freshDb } from "../../test/helpers/db.ts";
import type { Db } from "../db/db.ts";
import { rateLimiter } from "./rate-limiter.ts";

const quiet = { info() {}, error() {} };
const minute = 60_000;

describe.each(DB_KINDS)("the rate limiter (%s)", (kind) => {
  let inner: Db;
  let drop: () => Promise<void>;
  let statements: string[] = [];
  let failNext = false;
  // counts what reaches the database; can fail once on demand
  const db: Db = {
    get kind() {
      return inner.kind;
    },
    query(text, params, options) {
      statements.push(text);
      if (failNext) {
        failNext = false;
        return Promise.reject(new Error("connection lost"));
      }
      return inner.query(text, params, options);
    },
    exec: (script) => inner.exec(script),
    close: () => inner.close(),
  };
  let clock = 0;
  let n = 0;
  const bucket = () => `test:${kind}:${n++}`;
  // sharing on for both databases here, to run the statement on each
  const limiter = (intervalMs = 1000) =>
    rateLimiter(db, { intervalMs, share: true, log: quiet, now: () => clock });
  const rows = (b: string) =>
    inner.query<{ hits: number }>("select hits from rate_limits where bucket = $1", [b]);

  beforeAll(async () => {
    ({ db: inner, drop } = await freshDb(kind));
  });
  afterAll(() => drop());

  it("allows exactly the limit, then refuses until the window ends, with no statement", () => {
    clock = 100 * minute + 15_000; // 15 s into a window
    statements = [];
    const l = limiter();
    const b = bucket();
    const answers = Array.from({ length: 5 }, () => l.take(b, 3));
    expect(answers).toEqual([0, 0, 0, 45, 45]);
    expect(l.over(b, 3)).toBe(45);
    expect(l.over(b, 4)).toBe(0);
    expect(statements).toEqual([]);
    clock = 101 * minute; // a new window starts from nothing
    expect(l.take(b, 3)).toBe(0);
  });

  it("shares the counts of two instances in one statement per flush", async () => {
    clock = 200 * minute;
    const a = limiter();
    const b = limiter();
    const [x, y] = [bucket(), bucket()];
    for (let i = 0; i < 6; i++) expect([a.take(x, 10), b.take(x, 10)]).toEqual([0, 0]);
    a.take(y, 10);
    statements = [];
    await a.flush();
    await b.flush();
    expect(statements).toHaveLength(2); // both buckets went out in a's one statement
    expect(await rows(x)).toEqual([{ hits: 12 }]);
    expect(await rows(y)).toEqual([{ hits: 1 }]);
    // b learnt a's six hits when it flushed second: it refuses now
    expect(b.take(x, 10)).toBeGreaterThan(0);
    // a flushed first and still believes 6: it lets one more through (within one interval) and
    // learns the total with that hit's flush
    expect(a.take(x, 10)).toBe(0);
    await a.flush();
    expect(await rows(x)).toEqual([{ hits: 13 }]);
    expect(a.take(x, 10)).toBeGreaterThan(0);
    // nothing new, nothing sent
    statements = [];
    await b.flush();
    expect(statements).toEqual([]);
  });

  it("reads the others' hits for a bucket it counted nothing new for, until the limit", async () => {
    clock = 250 * minute;
    const a = limiter();
    const b = limiter();
    const x = bucket();
    for (let i = 0; i < 4; i++) a.take(x, 10);
    await a.flush();
    for (let i = 0; i < 6; i++) b.take(x, 10);
    await b.flush();
    expect(a.take(x, 10)).toBe(0); // a still believes 4 (+1)
    a.take(x, 10);
    b.take(x, 10); // now 10 + 2 + 1
    await b.flush();
    statements = [];
    await a.flush(); // sends its 2, learns 13
    expect(a.over(x, 10)).toBeGreaterThan(0);
    const c = limiter();
    c.take(x, 20);
    await c.flush(); // c: 14
    statements = [];
    await c.flush(); // nothing new from c, but under 20: c reads the total again
    expect(statements).toHaveLength(1);
    await a.flush(); // a is at its limit of 10: nothing to read
    expect(statements).toHaveLength(1);
  });

  it("starts a flush from a hit once the interval has passed, and not before", async () => {
    clock = 300 * minute;
    const l = limiter(500);
    const b = bucket();
    statements = [];
    l.take(b, 100);
    clock += 499;
    l.take(b, 100);
    expect(l.pending()).toBeNull();
    clock += 1;
    l.take(b, 100);
    expect(l.pending()).not.toBeNull();
    await l.pending();
    expect(statements).toHaveLength(1);
    expect(await rows(b)).toEqual([{ hits: 3 }]);
  });

  it("keeps the counts to itself when told not to share (PGlite: one process only)", async () => {
    clock = 350 * minute;
    const l = rateLimiter(db, { intervalMs: 1, share: false, log: quiet, now: () => clock });
    const b = bucket();
    statements = [];
    for (let i = 0; i < 3; i++) {
      expect(l.take(b, 3)).toBe(0);
      clock += 10;
    }
    expect(l.take(b, 3)).toBeGreaterThan(0);
    await l.flush();
    expect(statements).toEqual([]);
  });

  it("keeps the hits of a failed flush and sends them with the next", async () => {
    clock = 400 * minute;
    const l = limiter();
    const b = bucket();
    for (let i = 0; i < 4; i++) l.take(b, 5);
    failNext = true;
    await l.flush();
    expect(await rows(b)).toEqual([]);
    expect(l.take(b, 5)).toBe(0);
    expect(l.take(b, 5)).toBeGreaterThan(0); // the four unsent hits still count here
    await l.flush();
    expect(await rows(b)).toEqual([{ hits: 5 }]);
  });

  it("holds at most maxBuckets buckets under a flood of addresses, and still refuses the flooder's", async () => {
    clock = 450 * minute;
    const l = rateLimiter(db, {
      intervalMs: 1000,
      share: true,
      log: quiet,
      now: () => clock,
      maxBuckets: 500,
    });
    const busy = bucket();
    for (let i = 0; i < 3; i++) expect(l.take(busy, 3)).toBe(0);
    await l.flush();
    for (let i = 0; i < 20_000; i++) {
      l.take(`flood:${kind}:${i}`, 3);
      expect(l.size()).toBeLessThanOrEqual(500);
      if (i % 1000 === 999) {
        clock += 1000;
        await l.flush();
      }
    }
    // the busy bucket may have been evicted from memory; its count is in the database and comes
    // back with the next flush
    l.take(busy, 3);
    await l.flush();
    expect(l.take(busy, 3)).toBeGreaterThan(0);
  });
});
