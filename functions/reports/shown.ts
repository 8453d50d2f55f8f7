// How many respondents were shown each conditional question (SPEC §24: "2 of 2 shown (100 %), 5
// respondents"), counted in the database from each response's stored path. A stored payload
// holds only the answers of the fields its path showed, so the walk (src/core/logic/walk.ts)
// can be replayed in SQL over it: a condition reads the payload, the variables and the hidden
// values as walk reads them, a page is reached unless an earlier shown page jumped past it (each
// jumping page's own reach and jump are one LATERAL, so the statement grows with the jumps, not
// with their combinations), and a field is shown when its page and its condition hold. The
// page's core and this statement are held to the same answers by test/insights/shown.test.ts.
import type { Field } from "../../src/core/field-schema.ts";
import { compile, type LogicForm } from "../../src/core/logic/compiled.ts";
import type { Condition } from "../../src/core/logic/condition.ts";
import type { WhereCondition } from "../../src/core/where/where.ts";
import type { AppContext } from "../context.ts";
import { inPeriod } from "../services/responses.ts";
import { whereSql } from "../services/where/sql.ts";

type Bind = (value: unknown, cast: string) => string;

/** Where walk reads a name: an answer, a variable or a hidden value. */
function source(name: string, variables: ReadonlySet<string>, bind: Bind): string {
  if (name.startsWith("hidden.")) return `(payload -> '_hidden' -> ${bind(name.slice(7), "text")})`;
  return `(${variables.has(name) ? "variables" : "payload"} -> ${bind(name, "text")})`;
}

const EMPTY = `('null'::jsonb, '""'::jsonb, '[]'::jsonb, '{}'::jsonb)`;

/** A condition as a SQL boolean that is never null (walk's `holds`). */
export function conditionSql(c: Condition, variables: ReadonlySet<string>, bind: Bind): string {
  if (c.all) return `(${c.all.map((x) => conditionSql(x, variables, bind)).join(" and ")})`;
  if (c.any) return `(${c.any.map((x) => conditionSql(x, variables, bind)).join(" or ")})`;
  if (c.not) return `(not ${conditionSql(c.not, variables, bind)})`;
  const v = source(c.field!, variables, bind);
  const value = () => bind(JSON.stringify(c.value ?? null), "jsonb");
  const has = () => `(jsonb_typeof(${v}) = 'array' and ${v} @> jsonb_build_array(${value()}))`;
  const cmp = { gt: ">", lt: "<", gte: ">=", lte: "<=" } as const;
  switch (c.op!) {
    case "eq":
      return `coalesce(${v} = ${value()}, false)`;
    case "neq":
      return `(not coalesce(${v} = ${value()}, false))`;
    case "gt":
    case "lt":
    case "gte":
    case "lte":
      if (typeof c.value !== "number") return "false";
      return `(case when jsonb_typeof(${v}) = 'number' then (${v} #>> '{}')::numeric ${cmp[c.op!]} ${bind(c.value, "numeric")} else false end)`;
    case "includes":
      return `coalesce(${has()}, false)`;
    case "excludes":
      return `(not coalesce(${has()}, false))`;
    case "contains":
      return `(case jsonb_typeof(${v}) when 'array' then coalesce(${has()}, false) when 'string' then strpos(lower(${v} #>> '{}'), lower(${bind(String(c.value ?? ""), "text")})) > 0 else false end)`;
    case "answered":
      return `coalesce(${v} not in ${EMPTY}, false)`;
    case "unanswered":
      return `(not coalesce(${v} not in ${EMPTY}, false))`;
  }
}

/** A jump's target as a page number; an ending as one past every page. */
const PAST = 1_000_000_000;

export interface ShownSql {
  /** LATERAL joins to put after `from responses`. */
  joins: string;
  /** Per conditional field, the SQL boolean of "shown". */
  fields: { field: Field; shown: string }[];
}

/**
 * The conditional fields of a form (a condition of their own or their page's, or an earlier page
 * that can jump) and how to tell, in SQL, whether a response was shown each; none for a form
 * whose every field is shown to everyone.
 */
export function shownSql(form: LogicForm, bind: Bind): ShownSql {
  const c = compile(form);
  const variables = new Set(Object.keys(c.variables));
  const jumping = [
    ...new Set(
      form.fields.flatMap((_, i) => {
        const j = c.jumps[i]!;
        return j.field || j.options ? [c.pages[i]!] : [];
      }),
    ),
  ].sort((a, b) => a - b);
  const cond = (x: Condition) => conditionSql(x, variables, bind);
  /** Reached: no earlier jumping page, itself shown, jumped past `page`. */
  const reach = (page: number) => {
    const past = jumping
      .filter((p) => p < page)
      .map((p) => `(j${p}.s and coalesce(j${p}.j, -1) > ${page})`);
    return past.length === 0 ? "true" : `(not (${past.join(" or ")}))`;
  };
  const pageShown = (page: number) =>
    [reach(page), ...(c.pageIf[page] ? [cond(c.pageIf[page])] : [])].join(" and ");
  const joins = jumping.map((p) => {
    const arms = form.fields.flatMap((f, i) => {
      if (c.pages[i] !== p) return [];
      const j = c.jumps[i]!;
      if (!j.field && !j.options) return [];
      // bound only where it is written: an unused parameter has no type Postgres can tell
      const own = f.show_if ? cond(f.show_if) : "true";
      const to = (t: { page: number } | { ending: string }) => ("page" in t ? t.page : PAST);
      const options = (j.options ?? []).map(
        ([value, t]) =>
          `when ${own} and (payload -> ${bind(f.id, "text")} = ${bind(JSON.stringify(value), "jsonb")} or coalesce(payload -> ${bind(f.id, "text")} @> ${bind(JSON.stringify([value]), "jsonb")}, false)) then ${to(t)}`,
      );
      return [...options, ...(j.field ? [`when ${own} then ${to(j.field)}`] : [])];
    });
    return `cross join lateral (select z.s, case when z.s then case ${arms.join(" ")} end end as j from (select ${pageShown(p)} as s) z) j${p}`;
  });
  const conditional = (f: Field, i: number) =>
    f.show_if !== undefined ||
    c.pageIf[c.pages[i]!] !== undefined ||
    jumping.some((p) => p < c.pages[i]!);
  const fields = form.fields.flatMap((f, i) =>
    f.type === "statement" || !conditional(f, i)
      ? []
      : [
          {
            field: f,
            shown: `(${pageShown(c.pages[i]!)}${f.show_if ? ` and ${cond(f.show_if)}` : ""})`,
          },
        ],
  );
  return { joins: joins.join("\n"), fields };
}

/**
 * The respondents shown each conditional question in a period (test answers only `withTest`, a
 * segment's `where` too): one statement over the responses; an empty map for a form without one.
 */
export async function shownCounts(
  ctx: AppContext,
  formId: string,
  form: LogicForm,
  since: string | null,
  until: string | null,
  withTest: boolean,
  where: readonly WhereCondition[],
): Promise<Map<string, number>> {
  const params: unknown[] = [formId, since, until];
  const bind: Bind = (value, cast) => {
    params.push(value);
    return `$${params.length}::${cast}`;
  };
  const { joins, fields } = shownSql(form, bind);
  if (fields.length === 0) return new Map();
  const counts = fields.map((f, i) => `count(*) filter (where ${f.shown})::int as s${i}`);
  const filter = whereSql(where, params.length + 1);
  params.push(...filter.params);
  const [row] = await ctx.db.query<Record<string, number>>(
    `select ${counts.join(", ")} from responses ${joins}
      where ${inPeriod(withTest)} and ${filter.text}`,
    params,
  );
  return new Map(fields.map((f, i) => [f.field.id, row?.[`s${i}`] ?? 0]));
}
