import type { WhereCondition } from "../../src/core/where/where.ts";
import type { AppContext } from "../context.ts";
import type { Account } from "../services/accounts.ts";
import { type FormHead, ownedFormHead } from "../services/form-view.ts";
import { testAnswers } from "../services/responses.ts";
import { formLineage } from "../services/versions/reads.ts";
import { resolveWhere } from "../services/where/resolve.ts";
import { whereSql } from "../services/where/sql.ts";
import { funnelFor } from "./dropoff.ts";
import { logicSummary } from "./logic-summary.ts";

const DAY = 86_400_000;
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * SPEC §6 stats for the caller's form, with the drop-off funnel and median time (§13); test
 * answers counted only `withTest` (SPEC §16).
 */
export async function formStats(
  ctx: AppContext,
  account: Account,
  slug: string,
  now = Date.now(),
  withTest = false,
  where: unknown = undefined,
) {
  const row = await ownedFormHead(ctx, account, slug);
  // answers and beacons under an earlier id (`formerly`) count as the live field's (SPEC §16)
  const lines = await formLineage(ctx, row);
  // a filter (SPEC §18) narrows the responses; views, starts and beacons are not answers
  const filter = await resolveWhere(ctx, row, where, lines);
  // one pass over the responses of the days not yet kept counts them by day, their answers and
  // their median time (dropoff.ts); the beacons' totals come from their per-day counters
  const [events, funnel, dropped, logic] = await Promise.all([
    beaconTotals(ctx, row.id),
    funnelFor(ctx, row.id, row.definition.fields, lines, withTest, filter, now),
    droppedCopies(ctx, row.id),
    // responses per ending and the variables' figures (SPEC §24), on a form with them
    logicSummary(ctx, row.id, row.definition, null, null, withTest, filter),
  ]);
  const { responses, days, ...rest } = funnel;
  return {
    ...statsOfDays(now, days, responses, events),
    ...rest,
    respondent_copies_dropped: dropped,
    ...(logic ? { endings: logic.endings, variables: logic.variables } : {}),
  };
}

/**
 * Respondent copies (and resume links of partial responses, SPEC §25) not sent because their
 * address had had its 3 of the last 24 hours from this form (SPEC §23; migration 20261128000100):
 * a relay attempt shows here.
 */
async function droppedCopies(ctx: AppContext, formId: string): Promise<number> {
  const [row] = await ctx.db.query<{ dropped: number }>(
    "select coalesce(sum(dropped), 0)::int as dropped from respondent_copies where form_id = $1",
    [formId],
  );
  return row?.dropped ?? 0;
}

/** The UTC midnight starting the day of `now`. */
export const dayOf = (now: number) => Math.floor(now / DAY) * DAY;

/** The `days` days ending with the day of `now`, each with its count in `perDay` (by day number). */
export function daysEnding(perDay: Record<string, number>, now: number, days: number) {
  const today = dayOf(now);
  return Array.from({ length: days }, (_, i) => {
    const at = today - (days - 1 - i) * DAY;
    return { date: utcDay(at), count: perDay[at / DAY] ?? 0 };
  });
}

export async function beaconTotals(ctx: AppContext, formId: string) {
  const [events] = await ctx.db.query<{ views: number; starts: number }>(
    "select coalesce(sum(views), 0)::int as views, coalesce(sum(starts), 0)::int as starts from form_events where form_id = $1",
    [formId],
  );
  return events ?? { views: 0, starts: 0 };
}

/** The stats' answer from the responses per UTC day (by its number since 1970) and in all. */
export const statsOfDays = (
  now: number,
  days: Record<string, number>,
  responses: number,
  events: { views: number; starts: number },
) =>
  statsShape(
    dayOf(now),
    daysEnding(days, now, 14).map((d) => d.count),
    responses,
    events,
  );

/** The stats' answer from the responses of each of the 14 days (oldest first) and in all. */
function statsShape(
  today: number,
  perDay: readonly number[],
  responses: number,
  { views, starts }: { views: number; starts: number },
) {
  const series = perDay.map((count, i) => ({ date: utcDay(today - (13 - i) * DAY), count }));
  const current = series.slice(7).reduce((n, d) => n + d.count, 0);
  const previous = series.slice(0, 7).reduce((n, d) => n + d.count, 0);
  // a response that arrived without a start beacon counts as a start too, so the rate stays in
  // [0, 1] and stats, report and completion tell one story: starts ≥ responses
  const effectiveStarts = Math.max(starts, responses);
  return {
    views,
    starts: effectiveStarts,
    responses,
    submissions: responses,
    completion_rate:
      effectiveStarts === 0 ? 0 : Math.round((responses / effectiveStarts) * 1000) / 1000,
    sparkline_7d: series.slice(7),
    change: {
      period: "7d" as const,
      current,
      previous,
      delta: current - previous,
      percent: previous === 0 ? null : Math.round(((current - previous) / previous) * 1000) / 10,
    },
  };
}

/**
 * The report's stats (SPEC §6) beside its trend: the trend's days end on the same day as the
 * stats', so the last 14 of them are the stats' days, and only the responses outside the trend's
 * window are counted again — over the (form_id, submitted_at) index, without grouping. So the
 * report groups the window's responses by day once, not twice.
 */
export async function statsBesideTrend(
  ctx: AppContext,
  row: Pick<FormHead, "id">,
  trend: Promise<{ date: string; count: number }[]>,
  trendDays: number,
  now = Date.now(),
  withTest = false,
  where: readonly WhereCondition[] = [],
) {
  const filter = whereSql(where, 4);
  const only = `${testAnswers(withTest)} and ${filter.text}`;
  const today = dayOf(now);
  const from = new Date(today - (trendDays - 1) * DAY).toISOString();
  const until = new Date(today + DAY).toISOString();
  const [events, outside, days] = await Promise.all([
    beaconTotals(ctx, row.id),
    ctx.db.query<{ count: number }>(
      `select ((select count(*) from responses where form_id = $1 and ${only} and submitted_at < $2)
             + (select count(*) from responses where form_id = $1 and ${only} and submitted_at >= $3))::int as count`,
      [row.id, from, until, ...filter.params],
    ),
    trend,
  ]);
  const responses = days.reduce((n, d) => n + d.count, outside[0]?.count ?? 0);
  const last = days.slice(-14).map((d) => d.count);
  return statsShape(today, last, responses, events);
}
