import { answerable, dropoffFunnel, type FunnelStep } from "../../src/core/dropoff.ts";
import type { Field } from "../../src/core/field-schema.ts";
import type { Lineage } from "../../src/core/plan/lineage.ts";
import type { WhereCondition } from "../../src/core/where/where.ts";
import type { AppContext } from "../context.ts";
import { testAnswers } from "../services/responses.ts";
import { foldUnderLiveIds } from "../services/versions/reads.ts";
import { whereSql } from "../services/where/sql.ts";
import { medianSeconds } from "./report-tallies.ts";

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

/**
 * The all-time funnel and median time for the stats, in one pass over the form's responses: it
 * counts them, each field's answers and, with `days` (the bounds of the stats' days, oldest
 * first), the responses of each of those days — each a `count(*) filter` of two timestamp
 * comparisons, cheaper than a statement grouping the window's rows — and finds the median. The beacons
 * come from their per-day counters. Through `formerly` (the lineage's keys) a response that
 * answered a field under an earlier id answered it.
 */
export async function funnelFor(
  ctx: AppContext,
  formId: string,
  fields: readonly Field[],
  lines: Lineage | null = null,
  withTest = false,
  where: readonly WhereCondition[] = [],
  days: readonly string[] = [],
): Promise<{
  dropoff: FunnelStep[];
  median_seconds: number | null;
  responses: number;
  perDay: number[];
}> {
  const ids = answerable(fields).map((f) => f.id);
  const params: unknown[] = [formId];
  const p = (value: unknown) => {
    params.push(value);
    return `$${params.length}`;
  };
  const answered = ids.map((id) => {
    const any = (lines?.keys.get(id) ?? [id]).map((k) => `payload ? ${p(k)}::text`);
    return `count(*) filter (where ${any.join(" or ")})`;
  });
  const bounds = days.map((at) => `${p(at)}::timestamptz`);
  const perDay = bounds
    .slice(1)
    .map(
      (end, i) => `count(*) filter (where submitted_at >= ${bounds[i]} and submitted_at < ${end})`,
    );
  const filter = whereSql(where, params.length + 1);
  // grouped by the seconds each response took: the counts add up over the groups, and the
  // median is read off the groups' sizes (medianSeconds). An ordered-set aggregate such as
  // percentile_cont keeps Postgres from sharing the scan among its workers; a GROUP BY does not,
  // so the whole of the stats is one parallel pass (issue 28)
  const [groups, furthest] = await Promise.all([
    ctx.db.query<{ seconds: number | null; n: number; answered: number[]; days: number[] }>(
      `select seconds, count(*)::int as n, array[${answered.join(", ") || "0"}]::int[] as answered,
              array[${perDay.join(", ") || "0"}]::int[] as days
         from responses where form_id = $1 and ${testAnswers(withTest)} and ${filter.text}
        group by seconds`,
      [...params, ...filter.params],
    ),
    reachedCounts(ctx, formId, null, null, lines),
  ]);
  const sum = (pick: (g: (typeof groups)[number]) => number) =>
    groups.reduce((total, g) => total + Number(pick(g)), 0);
  const counts = new Map(ids.map((id, i) => [id, sum((g) => g.answered[i] ?? 0)]));
  return {
    dropoff: dropoffFunnel(fields, furthest, counts),
    median_seconds: medianSeconds(groups),
    responses: sum((g) => g.n),
    perDay: perDay.map((_, i) => sum((g) => g.days[i] ?? 0)),
  };
}
