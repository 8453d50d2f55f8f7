const DAY = 86_400_000;

export interface DigestPeriod {
  /** Unique per form and period: the outbox's once-only key. */
  key: string;
  from: number;
  until: number;
  /** "2026-11-23" or "the week of 2026-11-16". */
  label: string;
}

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The last complete period before `now` (UTC): yesterday for a daily digest, last Monday to
 * Sunday for a weekly one. Every instance computes the same key for the same moment.
 */
export function lastPeriod(kind: "daily" | "weekly", now: number): DigestPeriod {
  const today = Math.floor(now / DAY) * DAY;
  if (kind === "daily") {
    const from = today - DAY;
    return { key: `daily:${day(from)}`, from, until: today, label: day(from) };
  }
  // 1970-01-01 was a Thursday: days since the last Monday
  const sinceMonday = (Math.floor(today / DAY) + 3) % 7;
  const until = today - sinceMonday * DAY;
  const from = until - 7 * DAY;
  return { key: `weekly:${day(from)}`, from, until, label: `the week of ${day(from)}` };
}
