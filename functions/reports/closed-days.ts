// Aggregates over a form's responses that keep what they found in its closed days (migration
// 20261127000100): the UTC days that ended over an hour ago, when no submit in flight can still
// date a response in them. A stats or report read then scans the responses of the days since,
// over the (form_id, submitted_at) index, and those of a closed day once — until a response of
// the form is deleted, changed or written with an earlier date, which sets the kept ones aside.

import type { AppContext } from "../context.ts";

const DAY = 86_400_000;
/** A day is kept once it ended this long ago. */
const SETTLE_MS = 3_600_000;

/** An aggregate that adds up over disjoint spans of submitted_at. */
export interface Additive<T> {
  /** Tells this aggregate (its statement and parameters) apart from the form's others. */
  key: string;
  /** The aggregate of the responses submitted in [from, until); null is no bound. */
  read(from: string | null, until: string | null): Promise<T>;
  merge(a: T, b: T): T;
  /**
   * The aggregates of [from, at) and of [at, ∞) from one statement, for one counted by day: a
   * form's first read counts its closed days and today's in one pass.
   */
  readSplit?(from: string | null, at: string): Promise<[T, T]>;
  /** Whether the closed days' aggregate is worth keeping (small enough to read back at once). */
  keep?(value: T): boolean;
}

/** The midnight before which days are kept, as of `now` (never later than this clock's). */
export const closedBefore = (now: number) =>
  Math.floor((Math.min(now, Date.now()) - SETTLE_MS) / DAY) * DAY;

/**
 * The aggregate over all the form's responses: the kept one of its closed days, brought up to
 * date when a day has closed since, and the newer days' read now. `now` earlier than the kept
 * aggregate reaches (a report as of an earlier moment) reads everything instead.
 */
export async function overClosedDays<T>(
  ctx: AppContext,
  formId: string,
  now: number,
  aggregate: Additive<T>,
): Promise<T> {
  const closed = closedBefore(now);
  const closedAt = new Date(closed).toISOString();
  const key = await digest(aggregate.key);
  // the generation is read before any scan: a change committed after it makes what is kept stale
  const [head] = await ctx.db.query<{
    gen: string;
    kept: string | null;
    until: number | null;
    value: T | null;
  }>(
    `select coalesce(g.gen, 0)::text as gen, r.gen::text as kept,
            (extract(epoch from r.until) * 1000)::float8 as until, r.value
       from (select $1::uuid as form_id) f
       left join response_rollup_gens g on g.form_id = f.form_id
       left join response_rollups r on r.form_id = f.form_id and r.key = $2`,
    [formId, key],
  );
  const gen = head?.gen ?? "0";
  const kept = head && head.kept === gen && head.value !== null ? head : null;
  const until = kept ? Number(kept.until) : null;
  if (until !== null && until > closed) return aggregate.read(null, null);
  if (until === closed) return aggregate.merge(kept!.value!, await aggregate.read(closedAt, null));
  const since = until === null ? null : new Date(until).toISOString();
  const [closing, recent] = aggregate.readSplit
    ? await aggregate.readSplit(since, closedAt)
    : await Promise.all([aggregate.read(since, closedAt), aggregate.read(closedAt, null)]);
  const value = kept ? aggregate.merge(kept.value!, closing) : closing;
  if (aggregate.keep?.(value) === false) return aggregate.merge(value, recent);
  await ctx.db.query(
    `insert into response_rollups (form_id, key, gen, until, value)
     values ($1, $2, $3::bigint, $4, $5::jsonb)
     on conflict (form_id, key) do update
       set gen = excluded.gen, until = excluded.until, value = excluded.value`,
    [formId, key, gen, closedAt, JSON.stringify(value)],
  );
  // What was kept under an earlier generation is of no use any more: it goes, in a statement of
  // its own that skips rows another reader holds. A report keeps several aggregates at once; when
  // each one's upsert also deleted the others' stale rows, two of them could each hold a row the
  // other was upserting, and Postgres found the deadlock (a CI run). This delete never waits, and
  // an upsert waits only for it.
  await ctx.db.query(
    `delete from response_rollups where ctid in (
       select ctid from response_rollups where form_id = $1 and gen < $2::bigint
          for update skip locked)`,
    [formId, gen],
  );
  return aggregate.merge(value, recent);
}

/** A key of any length as a short one (SHA-256, hex). */
async function digest(text: string): Promise<string> {
  const bytes = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}
