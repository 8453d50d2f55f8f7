// Fixed one-minute windows, counted in this instance's memory and shared through the database
// approximately (SPEC §9). Deciding is synchronous and touches nothing: a refused request costs
// no statement at all, and an allowed one adds none to its own work. Once per sync interval
// (<= 1 s) one statement upserts this instance's new hits for every bucket it saw and reads back
// the totals of all instances (also for the buckets still under their limit that it has no new
// hits for), so each instance learns what the others let through. An instance can therefore let
// a client past the limit by what the other instances accepted since their last flush: about
// one interval's worth.
//
// The flush runs from the requests themselves (the first allowed hit after the interval starts
// it, without waiting for it), so a serverless isolate needs no timer; a long-lived server also
// calls flush() on a timer so the last hits before a quiet spell reach the others.

import { createHash } from "node:crypto";
import type { Log } from "../context.ts";
import type { Db } from "../db/db.ts";
import { outageKind } from "../db/outage.ts";
import { FLUSH } from "./flush-sql.ts";

const WINDOW_MS = 60_000;

/**
 * A bucket as the database keeps it. Names carry what a request sent (a slug in the path, any
 * text): one of 4,000 characters, over a btree key's 2,704 bytes, or with a NUL, failed the one
 * statement of every flush, so no count was shared for as long as a stranger sent one a minute
 * (SPEC §9: limits hold across instances). Such a name is kept as its hash.
 */
const keyed = (bucket: string) =>
  bucket.length <= 200 && /^[\x21-\x7e]*$/.test(bucket)
    ? bucket
    : `#${createHash("sha256").update(bucket).digest("hex")}`;

interface Count {
  /** Start of the window (ms) the counts belong to. */
  window: number;
  /** Every instance's hits as the database last said (includes our flushed ones). */
  shared: number;
  /** Our hits in a flush under way, not yet in `shared`. */
  sending: number;
  /** Our hits since then. */
  local: number;
  /** The limit the bucket was last taken against. */
  limit: number;
}

export interface RateLimiter {
  /** 0 when the hit is allowed (and counted); otherwise the seconds until the window ends. */
  take(bucket: string, limit: number): number;
  /** Like take() but counts nothing: 0 when a hit would be allowed. */
  over(bucket: string, limit: number): number;
  /** Shares the counts now (no-op when nothing is new); resolves when done, never rejects. */
  flush(): Promise<void>;
  /** The flush under way, if any (a serverless entry keeps the isolate alive for it). */
  pending(): Promise<void> | null;
  /** Buckets held in memory now. */
  size(): number;
}

export interface LimiterOptions {
  intervalMs: number;
  /**
   * Share counts through the database. Off for PGlite: its data directory has one process only
   * (db/lock.ts), so there is no one to share with, and a flush of 1,000 buckets held its one
   * connection for 100-280 ms a second (bench/limiter.ts, spread mode).
   */
  share: boolean;
  log: Log;
  now?: () => number;
  /** Buckets kept in memory at most (default 100,000): a flood of addresses cannot grow it. */
  maxBuckets?: number;
}

export function rateLimiter(db: Db, options: LimiterOptions): RateLimiter {
  const now = options.now ?? Date.now;
  const counts = new Map<string, Count>();
  let flushing: Promise<void> | null = null;
  let lastFlush = now();
  const maxBuckets = options.maxBuckets ?? 100_000;

  /**
   * Makes room for a new bucket: past windows first, then the oldest buckets whose hits the
   * database already has (sharing, the next hit reads them back), then the oldest of all.
   */
  function makeRoom(window: number) {
    const target = maxBuckets - Math.max(1, Math.floor(maxBuckets / 10));
    for (const pass of [0, 1, 2]) {
      for (const [bucket, c] of counts) {
        if (counts.size <= target) return;
        const flushed = c.local === 0 && c.sending === 0;
        if (c.window < window || (pass >= 1 && flushed) || pass === 2) counts.delete(bucket);
      }
    }
  }

  async function send(window: number, buckets: string[], deltas: number[], reads: string[]) {
    try {
      const rows = await db.query<{ bucket: string; hits: number }>(
        FLUSH,
        [buckets, new Date(window).toISOString(), deltas, reads],
        { prepare: true },
      );
      for (const row of rows) {
        const c = counts.get(row.bucket);
        if (c?.window === window) c.shared = Number(row.hits);
      }
      for (const b of buckets) {
        const c = counts.get(b);
        if (c?.window === window) c.sending = 0;
      }
    } catch (error) {
      // the hits stay ours and go out with the next flush
      buckets.forEach((b, i) => {
        const c = counts.get(b);
        if (c?.window === window) {
          c.sending = 0;
          c.local += deltas[i]!;
        }
      });
      // an unreachable database is logged once by its adapter, not every interval here
      if (outageKind(error) === null) options.log.error("rate-limit flush failed", error);
    }
  }

  function flush(): Promise<void> {
    if (flushing) return flushing;
    lastFlush = now();
    const window = windowOf(lastFlush);
    const buckets: string[] = [];
    const deltas: number[] = [];
    const reads: string[] = [];
    for (const [bucket, c] of counts) {
      if (c.window < window) {
        if (c.sending === 0) counts.delete(bucket); // a past window decides nothing any more
        continue;
      }
      if (!options.share) continue;
      if (c.local === 0) {
        // a bucket at its limit stays refused until the window ends: nothing to learn
        if (c.shared + c.sending < c.limit) reads.push(bucket);
        continue;
      }
      buckets.push(bucket);
      deltas.push(c.local);
      c.sending += c.local;
      c.local = 0;
    }
    if (buckets.length + reads.length === 0) return Promise.resolve();
    flushing = send(window, buckets, deltas, reads).finally(() => {
      flushing = null;
    });
    return flushing;
  }

  /** Seconds until the window ends when `bucket` is at the limit, else 0. */
  function refusal(c: Count | undefined, t: number, limit: number): number {
    if (!c || c.window !== windowOf(t) || c.shared + c.sending + c.local < limit) return 0;
    return Math.max(1, Math.ceil((c.window + WINDOW_MS - t) / 1000));
  }

  return {
    take(name, limit) {
      if (limit <= 0) return 0;
      const bucket = keyed(name);
      const t = now();
      let c = counts.get(bucket);
      const refused = refusal(c, t, limit);
      if (refused > 0) return refused;
      if (!c || c.window !== windowOf(t)) {
        if (!c && counts.size >= maxBuckets) makeRoom(windowOf(t));
        c = { window: windowOf(t), shared: 0, sending: 0, local: 0, limit };
        counts.set(bucket, c);
      }
      c.limit = limit;
      c.local++;
      if (t - lastFlush >= options.intervalMs) void flush();
      return 0;
    },
    over: (bucket, limit) => (limit <= 0 ? 0 : refusal(counts.get(keyed(bucket)), now(), limit)),
    flush,
    pending: () => flushing,
    size: () => counts.size,
  };
}

function windowOf(t: number): number {
  return t - (t % WINDOW_MS);
}
