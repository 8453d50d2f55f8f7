// The logic's figures for stats and reports (SPEC §24): responses per ending reached, and each
// variable's figures, from the `ending` and `variables` columns the server wrote at submit. One
// statement per variable and one for the endings, run together; none for a form without logic.
import type { LogicForm } from "../../src/core/logic/compiled.ts";
import { nameTable } from "../../src/core/logic/names.ts";
import { hasEndings } from "../../src/core/logic/respond.ts";
import type { LogicSummary, VariableSummary } from "../../src/core/logic/summary.ts";
import type { WhereCondition } from "../../src/core/where/where.ts";
import type { AppContext } from "../context.ts";
import { inPeriod } from "../services/responses.ts";
import { whereSql } from "../services/where/sql.ts";

/** Values listed per variable that is not a number. */
const TOP = 5;

export async function logicSummary(
  ctx: AppContext,
  formId: string,
  form: LogicForm & { hidden?: readonly string[] },
  since: string | null,
  until: string | null,
  withTest: boolean,
  where: readonly WhereCondition[],
): Promise<LogicSummary | null> {
  const variables = form.variables ?? [];
  if (!hasEndings(form) && variables.length === 0) return null;
  const filter = whereSql(where, 5);
  const period = `${inPeriod(withTest)} and ${filter.text}`;
  const run = <T>(select: string, k: unknown) =>
    ctx.db.query<T>(select, [formId, since, until, k, ...filter.params]);
  const names = nameTable({ ...form, hidden: form.hidden ?? [] }, []);
  const endings = hasEndings(form)
    ? run<{ id: string; count: number }>(
        `select ending as id, count(*)::int as count from responses
          where ${period} and ending is not null and $4::text is null group by 1 order by 2 desc, 1`,
        null,
      )
    : Promise.resolve([]);
  const figures = variables.map(async (v): Promise<VariableSummary> => {
    const named = names.get(v.id);
    const base = { id: v.id, label: v.label ?? v.id };
    if (named?.kind === "variable" && named.type === "number") {
      const [row] = await run<{
        count: number;
        min: string | null;
        mean: string | null;
        max: string | null;
      }>(
        `select count(n)::int as count, min(n)::text as min, round(avg(n), 2)::text as mean, max(n)::text as max
           from (select case when jsonb_typeof(variables -> $4::text) = 'number'
                        then (variables ->> $4::text)::numeric end as n
                   from responses where ${period}) as v`,
        v.id,
      );
      const num = (x: string | null | undefined) =>
        x === null || x === undefined ? null : Number(x);
      return {
        ...base,
        count: row?.count ?? 0,
        min: num(row?.min),
        mean: num(row?.mean),
        max: num(row?.max),
      };
    }
    const rows = await run<{ value: string; count: number }>(
      `select variables ->> $4::text as value, count(*)::int as count from responses
        where ${period} and coalesce(variables ->> $4::text, '') <> '' group by 1 order by 2 desc, 1`,
      v.id,
    );
    return {
      ...base,
      count: rows.reduce((n, r) => n + r.count, 0),
      values: rows.slice(0, TOP),
    };
  });
  const [e, vs] = await Promise.all([endings, Promise.all(figures)]);
  return { endings: e, variables: vs };
}
