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

/** A cell a spreadsheet would run as a formula gets a leading quote. */
const cell = (v: string) =>
  `case when left((${v}), 1) in ('=', '+', '-', '@', chr(9), chr(13)) then '''' || (${v}) else (${v}) end`;

/** A checkbox or ranking answer: its items joined with `; `. */
const list = (path: string) =>
  `case when jsonb_typeof(payload #> ${path}) = 'array' then array_to_string(array(select jsonb_array_elements_text(payload #> ${path})), '; ') else payload #>> ${path} end`;

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
    return `${cell(c.list ? list(path) : `payload #>> ${path}`)} as "${c.header}"`;
  });
  if (quiz) cells.push(`score->>'points' as score_points`, `score->>'percent' as score_percent`);
  const where = [`form_id = '${formId}'`];
  if (range.since) where.push(`submitted_at >= '${range.since}'`);
  if (range.until) where.push(`submitted_at < '${range.until}'`);
  return `copy (select id, to_char(submitted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as submitted_at, ${cells.join(", ")}
    from responses where ${where.join(" and ")} order by submitted_at desc, id desc) to stdout with (format csv, header true)`;
}
