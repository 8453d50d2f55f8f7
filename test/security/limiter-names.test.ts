// Ninth review (2026-11-28, REVIEW-9A): rate-limit buckets are named by what a request sent (the
// slug in `POST /api/forms/<slug>/submit`, any text) and each flush shares every bucket in one
// statement. One anonymous submit to a 4,000-character random slug (404) made that statement
// fail (`index row size 4040 exceeds btree version 4 maximum 2704 for index
// "rate_limits_pkey"`; a NUL does the same) at every flush for the rest of the minute: no
// instance learnt another's counts, so on Postgres with several instances or serverless isolates
// every limit (password guesses per form included) held per instance only (SPEC §9: they hold
// across instances). Such names are now kept as their hash.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../functions/db/db.ts";
import { rateLimiter } from "../../functions/limiter/rate-limiter.ts";
import { DB_KINDS, freshDb } from "../helpers/db.ts";

describe.each(DB_KINDS)("rate-limit buckets named by a stranger (%s)", (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  const errors: unknown[] = [];
  const log = { info() {}, error: (_m: string, e?: unknown) => void errors.push(e) };
  beforeAll(async () => {
    ({ db, drop } = await freshDb(kind));
  });
  afterAll(() => drop());

  it("still share every other count across instances", async () => {
    let clock = 500 * 60_000 + 1000;
    const instance = () => rateLimiter(db, { intervalMs: 1, share: true, log, now: () => clock });
    const [a, b] = [instance(), instance()];
    const limit = 3;
    // the password bucket of a real form, on instance A, at its limit
    const real = "access-failed:real:203.0.113.9";
    for (let i = 0; i < limit; i++) expect(a.take(real, limit)).toBe(0);
    // the same minute, a stranger's slugs: long and random, a NUL, a long non-ASCII one
    for (const slug of [randomBytes(2000).toString("hex"), "a\u0000b", "é".repeat(3000)])
      expect(a.take(`submit:${slug}:198.51.100.7`, 600)).toBe(0);
    clock += 10;
    await a.flush();
    expect(errors).toEqual([]);
    // instance B learns A's count at its next flush and refuses the client
    expect(b.take(real, limit)).toBe(0);
    clock += 10;
    await b.flush();
    expect(b.over(real, limit)).toBeGreaterThan(0);
    const [row] = await db.query<{ hits: number }>(
      "select hits from rate_limits where bucket = $1",
      [real],
    );
    expect(row?.hits).toBe(limit + 1);
  });
});
