import type { Column } from "../../src/core/csv.ts";
import type { Range } from "../services/responses.ts";

// COPY takes no bind parameters, so this statement is assembled — from values that cannot carry
// SQL: a UUID from our own database, ISO instants we formatted, and field/row/hidden names the
// form schema restricts to [A-Za-z0-9_-] (checked again here). Postgres then writes the CSV
// (quoting; formulas neutralised by `cell`) several times faster than Node can. Expressions
// are inline: a SQL function per cell is not inlined when it holds a subquery, and cost 3×.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NAME = /^[A-Za-z0-9_-]+$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`refusing to build an export statement with an unexpected ${what}`);
}

/**
 * A cell a spreadsheet would run as a formula gets a leading quote. `first` is an expression with
 * the same first character as `v` but cheaper (a list's first item), so `v` is computed once.
 */
const cell = (v: string, first = v) =>
  `case when left((${first}), 1) in ('=', '+', '-', '@', chr(9), chr(13)) then '''' || (${v}) else (${v}) end`;

/**
 * A checkbox or ranking answer: its items joined with `; `. No subquery (its mere presence in the
 * select list halves COPY's rate): the array's jsonb text becomes a Postgres array literal —
 * outer brackets to braces, the escapes \n \t \r \b \f to their characters (\" and \\ mean
 * the same in both). jsonb writes other control characters as \u00XX, which this leaves as text.
 */
function list(path: string): string {
  const bs = "chr(92)";
  let text = `replace((payload #> ${path})::text, ${bs} || ${bs}, chr(1))`;
  for (const [letter, code] of [
    ["n", 10],
    ["t", 9],
    ["r", 13],
    ["b", 8],
    ["f", 12],
  ] as const)
    text = `replace(${text}, ${bs} || '${letter}', chr(${code}))`;
  text = `replace(${text}, chr(1), ${bs} || ${bs})`;
  const joined = `array_to_string(('{' || substr(${text}, 2, length(${text}) - 2) || '}')::text[], '; ')`;
  return `case when jsonb_typeof(payload #> ${path}) = 'array' then ${joined} else payload #>> ${path} end`;
}

export function copyCsvStatement(
  formId: string,
  columns: Column[],
  range: Range,
  quiz: boolean,
): string {
  check(UUID.test(formId), "form id");
  for (const c of columns)
    check(
      c.path.every((p) => NAME.test(p)),
      "column path",
    );
  for (const at of [range.since, range.until]) check(at === null || INSTANT.test(at), "instant");
  const cells = columns.map((c) => {
    const path = `'{${c.path.join(",")}}'`;
    const first = `coalesce(payload #>> '{${[...c.path, "0"].join(",")}}', payload #>> ${path})`;
    const value = c.list ? cell(list(path), first) : cell(`payload #>> ${path}`);
    return `${value} as "${c.header}"`;
  });
  if (quiz) cells.push(`score->>'points' as score_points`, `score->>'percent' as score_percent`);
  const where = [`form_id = '${formId}'`];
  if (range.since) where.push(`submitted_at >= '${range.since}'`);
  if (range.until) where.push(`submitted_at < '${range.until}'`);
  return `copy (select id, to_char(submitted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as submitted_at, ${cells.join(", ")}
    from responses where ${where.join(" and ")} order by submitted_at desc, id desc) to stdout with (format csv, header true)`;
}
