import type { Field } from "../../src/core/field-schema.ts";
import type { Lineage } from "../../src/core/plan/lineage.ts";
import {
  type AggregateRow,
  addAggregate,
  newTally,
  tallied,
} from "../../src/core/report-summary.ts";
import type { WhereCondition } from "../../src/core/where/where.ts";
import type { AppContext } from "../context.ts";
import { inPeriod } from "../services/responses.ts";
import { aliases } from "../services/versions/reads.ts";
import { whereSql } from "../services/where/sql.ts";
import { overClosedDays } from "./closed-days.ts";
import { foldFunnel, foldSplit, funnelMedian, mergeFunnels } from "./dropoff.ts";
import { itemsOf, itemsOfLists, listsOf } from "./report-lists.ts";

/** Text answers shown per field unless the caller asks for more (the rest are announced). */
const RECENT = 5;
const LIST = new Set(["checkbox", "ranking"]);
/** A field with more distinct values than this is counted whole each time, not kept. */
const KEPT_VALUES = 2000;

/** Value rows of two spans as one: the same value's counts and positions added. */
function mergeRows(a: AggregateRow[], b: AggregateRow[]): AggregateRow[] {
  const rows = new Map<string, AggregateRow>();
  for (const r of [...a, ...b]) {
    const key = JSON.stringify([r.kind, r.sub, r.item]);
    const seen = rows.get(key);
    rows.set(key, seen ? { ...seen, n: seen.n + r.n, pos: seen.pos + r.pos } : r);
  }
  return [...rows.values()];
}

/** One branch of the value aggregate for a field whose id is bind parameter `$k`. */
function branch(field: Field, k: string, responses: string, inRange: string): string {
  if (field.type === "matrix")
    return `select ${k} as field, 'm' as kind, o.key as sub, o.value #>> '{}' as item, count(*)::int as n, 0 as pos
      from ${responses}, jsonb_each(case when jsonb_typeof(payload -> ${k}) = 'object' then payload -> ${k} else '{}'::jsonb end) as o
     where ${inRange} group by 3, 4`;
  if (LIST.has(field.type)) return itemsOf(k, responses, inRange);
  // every answer by its text, without looking at its JSON type row by row (that doubled the
  // statement): a list or an object answer, text starting with [ or {, is taken out afterwards
  return `select ${k} as field, 'v' as kind, null as sub, payload ->> ${k} as item, count(*)::int as n, 0 as pos
      from ${responses} where ${inRange} group by 4`;
}

/**
 * A scalar field's list or object answers (an earlier version's, or written around the API), by
 * their text: what `branch` counted among its values and must not have. Only run when a value it
 * counted starts with `[` or `{`: only then can there be any.
 */
const structuredAnswers = (k: string, responses: string, inRange: string) =>
  `select payload ->> ${k} as item, count(*)::int as n
     from ${responses} where ${inRange} and jsonb_typeof(payload -> ${k}) in ('array', 'object') group by 1`;

const mayBeStructured = (row: AggregateRow) => row.item !== null && /^[[{]/.test(row.item);

/**
 * How many of the report's value statements run at a time: two cores' worth on a small server,
 * while the pool keeps its other connections for submits (a form of thirty fields would otherwise
 * take them all for the length of its scans).
 */
const LANES = 2;

/** Runs the tasks, `lanes` at a time, and returns their rows in the tasks' order. */
async function inLanes<T>(tasks: (() => Promise<T[]>)[], lanes: number): Promise<T[]> {
  const rows: T[][] = [];
  let next = 0;
  const lane = async () => {
    while (next < tasks.length) {
      const i = next++;
      rows[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, tasks.length) }, lane));
  return rows.flat();
}

/**
 * The report's numbers from SQL aggregates, not by reading rows into Node: one pass counting the
 * responses and each field's answers (`count(*) filter`), one grouped statement per summarised
 * field (values, distinct lists whose items are added up here, matrix cells) and one for quiz
 * score buckets, and the newest few text answers per field over the submitted_at index. Field ids
 * travel as bind parameters; only the statement's shape follows the form.
 */
export async function reportTallies(
  ctx: AppContext,
  formId: string,
  fields: readonly Field[],
  since: string | null,
  quiz: boolean,
  until: string | null = null,
  recentLimit = RECENT,
  lines: Lineage | null = null,
  withTest = false,
  where: readonly WhereCondition[] = [],
  keepAsOf: number | null = null,
  /** The fields whose answers come beside each recent text answer (report-summary.ts keyFields). */
  withKeys: readonly string[] = [],
) {
  // a filter (SPEC §18) joins the period's condition; its parameters follow each statement's own
  const filtered = (first: number) => whereSql(where, first);
  // answers of retired fields are counted too (the report's "From earlier versions")
  const retired = lines?.retired.map((f) => f.id) ?? [];
  const ids = [...fields.map((f) => f.id), ...retired];
  const k = (i: number) => `$${i + 4}::text`;
  const summarised = fields.filter(tallied);
  // through `formerly`, answers under an earlier id count as the live field's (SPEC §16); the
  // aliases travel as the statement's last parameter
  const carried =
    lines && lines.keys.size > 0 && [...lines.keys.values()].some((x) => x.length > 1);
  const from = (n: number) =>
    carried
      ? `(select form_id, submitted_at, id, seconds, score, test, version, lang, formdown_carry(payload, $${n}::jsonb) as payload from responses) as responses`
      : "responses";
  const alias = carried ? [JSON.stringify(aliases(lines!))] : [];
  // one statement per summarised field (and one for quiz scores), LANES at a time: on Postgres
  // each takes a connection and a core of its own, where the branches of one UNION ALL ran one
  // after the other. Each has the period's parameters, its field's id as $4, the aliases, the filter.
  const valuesWhere = filtered(5 + alias.length);
  const inRange = `${inPeriod(withTest)} and ${valuesWhere.text}`;
  const counted: { text: string; params: unknown[] }[] = summarised.map((f) => ({
    text: branch(f, "$4::text", from(5), inRange),
    params: [formId, since, until, f.id, ...alias, ...valuesWhere.params],
  }));
  if (quiz) {
    const quizWhere = filtered(4 + alias.length);
    counted.push({
      text: `select '' as field, 'q' as kind, null as sub, least(90, floor((score ->> 'percent')::numeric / 10) * 10)::int::text as item, count(*)::int as n, 0 as pos
      from ${from(4)} where ${inPeriod(withTest)} and ${quizWhere.text} and jsonb_typeof(score -> 'percent') = 'number' group by 4`,
      params: [formId, since, until, ...alias, ...quizWhere.params],
    });
  }
  const totalsWhere = filtered(ids.length + 4 + alias.length);
  const recentWhere = filtered(6 + alias.length);
  const texts = fields.filter((f) => !tallied(f)).map((f) => f.id);
  const answered = ids.map((_, i) => `count(*) filter (where payload ? ${k(i)})::int`);
  // grouped by the seconds taken, the median read off the groups (as the stats do, dropoff.ts):
  // a GROUP BY lets Postgres share the scan among its workers, an ordered-set aggregate not;
  // kept (closed-days.ts), by day too: the trend and the stats are read off the days
  const totalsText = (byDay: boolean) =>
    `select ${byDay ? "(extract(epoch from g.day) / 86400)::int as day, " : ""}g.seconds, g.n, g.answered from (
       select ${byDay ? "date_bin('1 day', submitted_at, '2000-01-01T00:00:00Z') as day, " : ""}seconds,
              count(*)::int as n, array[${answered.join(", ") || "0"}]::int[] as answered
         from ${from(ids.length + 4)} where ${inPeriod(withTest)} and ${totalsWhere.text}
        group by ${byDay ? "1, 2" : "seconds"}) as g`;
  const totalsGroups = (byDay: boolean, start: string | null, end: string | null) =>
    ctx.db.query<{ day?: number; seconds: number | null; n: number; answered: number[] }>(
      totalsText(byDay),
      [formId, start, end, ...ids, ...alias, ...totalsWhere.params],
    );
  const totalsRead = (byDay: boolean) => async (start: string | null, end: string | null) =>
    foldFunnel(await totalsGroups(byDay, start, end), ids.length);
  // kept: the closed days apart from the newer ones, out of one statement
  const totalsSplit = async (start: string | null, at: string) =>
    foldSplit(await totalsGroups(true, start, null), at, ids.length);
  /** A field's values in [start, end), less the structured answers a scalar field's took in. */
  const valuesRead =
    (q: { text: string; params: unknown[] }, field: Field | undefined) =>
    async (start: string | null, end: string | null) => {
      const params = [formId, start, end, ...q.params.slice(3)];
      if (field && LIST.has(field.type)) {
        // the distinct lists, their items added up here (report-lists.ts); or the items in SQL
        const lists = await ctx.db.query<{ list: unknown; n: number }>(
          listsOf("$4::text", from(5), inRange),
          params,
        );
        return itemsOfLists(field, lists) ?? ctx.db.query<AggregateRow>(q.text, params);
      }
      const rows = await ctx.db.query<AggregateRow>(q.text, params);
      if (!field || field.type === "matrix" || !rows.some(mayBeStructured)) return rows;
      const structured = await ctx.db.query<{ item: string; n: number }>(
        structuredAnswers("$4::text", from(5), inRange),
        params,
      );
      const less = new Map(structured.map((r) => [r.item, r.n]));
      return rows
        .map((r) =>
          r.item !== null && less.has(r.item) ? { ...r, n: r.n - less.get(r.item)! } : r,
        )
        .filter((r) => r.n > 0);
    };
  // all time and unsegmented (collectReport): what the closed days hold is kept, its key the
  // statement with its parameters but the span
  const kept = (key: unknown[]) => JSON.stringify(["report", withTest, ...key]);
  const [totals, values, recent] = await Promise.all([
    keepAsOf === null
      ? // all time, by day too: the trend and the stats are read off the days (report-data.ts)
        totalsRead(since === null && until === null)(since, until)
      : overClosedDays(ctx, formId, keepAsOf, {
          key: kept([totalsText(true), ids, alias]),
          read: totalsRead(true),
          readSplit: totalsSplit,
          merge: mergeFunnels,
        }),
    inLanes(
      counted.map((q, i) => () => {
        const read = valuesRead(q, summarised[i]);
        return keepAsOf === null
          ? read(since, until)
          : overClosedDays(ctx, formId, keepAsOf, {
              key: kept([q.text, q.params.slice(3)]),
              read,
              merge: mergeRows,
              keep: (rows) => rows.length <= KEPT_VALUES,
            });
      }),
      LANES,
    ),
    texts.length === 0
      ? Promise.resolve([])
      : ctx.db.query<{ field: string; answers: string[] }>(
          // each answer as the JSON text [answer, {key field: its answer, …}] of its response
          `select f.key as field, array(
             select jsonb_build_array(payload ->> f.key, (
                 select coalesce(jsonb_object_agg(c.key, payload -> c.key), '{}'::jsonb)
                   from unnest($${6 + alias.length + recentWhere.params.length}::text[]) as c(key)
                  where c.key <> f.key and payload ? c.key))::text
               from ${from(6)} where ${inPeriod(withTest)} and ${recentWhere.text} and payload ? f.key
              order by submitted_at desc, id desc limit $5) as answers
             from unnest($4::text[]) as f(key)`,
          [
            formId,
            since,
            until,
            texts,
            recentLimit,
            ...alias,
            ...recentWhere.params,
            [...withKeys],
          ],
        ),
  ]);
  const answeredAt = (i: number) => totals.answered[i] ?? 0;
  const tallies = new Map(fields.map((f, i) => [f.id, newTally(answeredAt(i))]));
  const byId = new Map(fields.map((f) => [f.id, f]));
  const scores = new Map<number, number>();
  for (const row of values) {
    if (row.kind === "q") scores.set(Number(row.item), row.n);
    else {
      // an earlier option label counts as the live option that names it in `formerly`
      const renamed = lines?.options.get(row.field);
      const item = row.item !== null && renamed?.has(row.item) ? renamed.get(row.item)! : row.item;
      addAggregate(byId.get(row.field)!, tallies.get(row.field)!, { ...row, item });
    }
  }
  for (const row of recent) {
    const tally = tallies.get(row.field)!;
    const pairs = row.answers.map((a) => JSON.parse(a) as [unknown, Record<string, unknown>]);
    tally.recent = pairs.map(([answer]) => String(answer));
    tally.recentWith = pairs.map(([, keys]) => keys);
  }
  const earlier = retired.map((_, i) => ({
    field: lines!.retired[i]!,
    answered: answeredAt(fields.length + i),
  }));
  return {
    earlier,
    responses: totals.n,
    /** Responses per UTC day (by its number since 1970); only over all time. */
    days: totals.days,
    tallies,
    scores,
    medianSeconds: funnelMedian(totals),
  };
}
