import { answerable, dropoffFunnel, type FunnelStep } from "../../src/core/dropoff.ts";
import type { Field } from "../../src/core/field-schema.ts";
import { histogramMedian } from "../../src/core/median.ts";
import type { Lineage } from "../../src/core/plan/lineage.ts";
import type { WhereCondition } from "../../src/core/where/where.ts";
import type { AppContext } from "../context.ts";
import { binder } from "../db/bind.ts";
import { testAnswers } from "../services/responses.ts";
import { foldUnderLiveIds } from "../services/versions/reads.ts";
import { whereSql } from "../services/where/sql.ts";
import { overClosedDays } from "./closed-days.ts";

const DAY = 86_400_000;

/**
 * Progress beacons (respondents who reached it) per field between two instants (by UTC day, like
 * the other beacons); with the form's lineage, beacons sent under an earlier id (`formerly`)
 * count as the live field's.
 */
export async function reachedCounts(
  ctx: AppContext,
  formId: string,
  since: string | null = null,
  until: string | null = null,
  lines: Lineage | null = null,
): Promise<Map<string, number>> {
  const rows = await ctx.db.query<{ field: string; n: number }>(
    `select field, sum(reached)::int as n from form_progress
      where form_id = $1 and ($2::timestamptz is null or day >= ($2::timestamptz at time zone 'utc')::date)
        and ($3::timestamptz is null or day < ($3::timestamptz at time zone 'utc')::date)
      group by field`,
    [formId, since, until],
  );
  const counts = new Map(rows.map((r) => [r.field, r.n]));
  return lines ? foldUnderLiveIds(counts, lines) : counts;
}

const roundSeconds = (n: number) => Math.round(n * 10) / 10;

/**
 * The median time of responses counted grouped by the seconds they took (a GROUP BY lets Postgres
 * share the scan among its workers; percentile_cont would not), rounded as the stats show it.
 */
export function medianSeconds(groups: readonly { seconds: number | null; n: number }[]) {
  const median = histogramMedian(
    groups.flatMap((g) => (g.seconds === null ? [] : [{ value: Number(g.seconds), n: g.n }])),
  );
  return median === null ? null : roundSeconds(median);
}

/** A pass counting some of a form's responses (it adds up over spans of time). */
export interface Funnel {
  n: number;
  /** Responses per UTC day, by the day's number since 1970. */
  days: Record<string, number>;
  answered: number[];
  /** Responses per seconds taken (the median's histogram); null ones are not in it. */
  seconds: Record<string, number>;
}

const addCounts = (a: Record<string, number>, b: Record<string, number>) => {
  const out = { ...a };
  for (const [k, n] of Object.entries(b)) out[k] = (out[k] ?? 0) + n;
  return out;
};

export const mergeFunnels = (a: Funnel, b: Funnel): Funnel => ({
  n: a.n + b.n,
  days: addCounts(a.days, b.days),
  answered: a.answered.map((n, i) => n + (b.answered[i] ?? 0)),
  seconds: addCounts(a.seconds, b.seconds),
});

/** A Funnel from groups of responses by day (optional) and seconds, with `width` answer counts. */
export function foldFunnel(
  groups: readonly { day?: number; seconds: number | null; n: number; answered: number[] }[],
  width: number,
): Funnel {
  const funnel: Funnel = { n: 0, days: {}, answered: Array(width).fill(0), seconds: {} };
  for (const g of groups) {
    funnel.n += g.n;
    if (g.day !== undefined) funnel.days[g.day] = (funnel.days[g.day] ?? 0) + g.n;
    g.answered.forEach((n, i) => {
      funnel.answered[i]! += n;
    });
    if (g.seconds !== null) funnel.seconds[g.seconds] = (funnel.seconds[g.seconds] ?? 0) + g.n;
  }
  return funnel;
}

/** Groups counted by day folded as two Funnels: the days before `at`, and `at`'s and after. */
export function foldSplit(
  groups: readonly { day?: number; seconds: number | null; n: number; answered: number[] }[],
  at: string,
  width: number,
): [Funnel, Funnel] {
  const day = Date.parse(at) / DAY;
  return [
    foldFunnel(
      groups.filter((g) => g.day! < day),
      width,
    ),
    foldFunnel(
      groups.filter((g) => g.day! >= day),
      width,
    ),
  ];
}

/** The median of a Funnel's seconds (null when none has its time). */
export const funnelMedian = (funnel: Funnel) =>
  medianSeconds(Object.entries(funnel.seconds).map(([s, n]) => ({ seconds: Number(s), n })));

/**
 * The all-time funnel and median time for the stats, and the responses per day: one pass over
 * the responses of the days not yet kept (closed-days.ts; with a filter, over all of them),
 * counting them by day and by the seconds they took, and each field's answers. The beacons come
 * from their per-day counters. Through `formerly` (the lineage's keys) a response that answered a
 * field under an earlier id answered it.
 */
export async function funnelFor(
  ctx: AppContext,
  formId: string,
  fields: readonly Field[],
  lines: Lineage | null = null,
  withTest = false,
  where: readonly WhereCondition[] = [],
  now = Date.now(),
): Promise<{
  dropoff: FunnelStep[];
  median_seconds: number | null;
  responses: number;
  /** Responses per UTC day, by its number since 1970. */
  days: Record<string, number>;
}> {
  const ids = answerable(fields).map((f) => f.id);
  const keys = ids.map((id) => lines?.keys.get(id) ?? [id]);
  const groups = async (from: string | null, until: string | null) => {
    const params: unknown[] = [formId];
    const p = binder(params);
    const answered = keys.map(
      (any) => `count(*) filter (where ${any.map((k) => `payload ? ${p(k)}::text`).join(" or ")})`,
    );
    const span = [
      from === null ? "" : ` and submitted_at >= ${p(from)}::timestamptz`,
      until === null ? "" : ` and submitted_at < ${p(until)}::timestamptz`,
    ].join("");
    const filter = whereSql(where, params.length + 1);
    // grouped by day and by the seconds taken: the counts add up over the groups, and the median
    // is read off the groups' sizes (medianSeconds); date_bin is integer arithmetic on the instant
    return ctx.db.query<{ day: number; seconds: number | null; n: number; answered: number[] }>(
      `select (extract(epoch from g.day) / 86400)::int as day, g.seconds, g.n, g.answered from (
         select date_bin('1 day', submitted_at, '2000-01-01T00:00:00Z') as day, seconds,
                count(*)::int as n, array[${answered.join(", ") || "0"}]::int[] as answered
           from responses where form_id = $1 and ${testAnswers(withTest)}${span} and ${filter.text}
          group by 1, 2) as g`,
      [...params, ...filter.params],
    );
  };
  const read = async (from: string | null, until: string | null) =>
    foldFunnel(await groups(from, until), ids.length);
  // the days before `at` apart from the rest, out of one statement
  const readSplit = async (from: string | null, at: string) =>
    foldSplit(await groups(from, null), at, ids.length);
  // a filter's segment is not kept: it is read whole
  const counting =
    where.length > 0
      ? read(null, null)
      : overClosedDays(ctx, formId, now, {
          key: JSON.stringify(["funnel", withTest, keys]),
          read,
          readSplit,
          merge: mergeFunnels,
        });
  const [funnel, furthest] = await Promise.all([
    counting,
    reachedCounts(ctx, formId, null, null, lines),
  ]);
  const counts = new Map(ids.map((id, i) => [id, funnel.answered[i] ?? 0]));
  return {
    dropoff: dropoffFunnel(fields, furthest, counts),
    median_seconds: funnelMedian(funnel),
    responses: funnel.n,
    days: funnel.days,
  };
}
