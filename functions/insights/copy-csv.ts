import type { Column } from "../../src/core/csv.ts";
import { type Range, testAnswers } from "../services/responses.ts";
import type { CopyWhereSql } from "../services/where/sql.ts";

// COPY takes no bind parameters, so this statement is assembled — from values that cannot carry
// SQL: a UUID from our own database, ISO instants we formatted, and field/row/hidden names the
// form schema restricts to [A-Za-z0-9_-] (checked again here). A filter's values never enter
// the text: they travel apart, in a setting the statement reads (whereCopySql). Postgres then
// writes the CSV (quoting; formulas neutralised) at close to the rate of a bare COPY.
//
// What it costs is reading JSON: Postgres evaluates an expression again wherever it is named, so
// a list answer is read once, in a LATERAL subquery kept apart by OFFSET 0, and its cell
// expression only looks at that text. (A subquery evaluated for every row, or a SQL function per
// cell, halves or thirds the rate.)
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NAME = /^[A-Za-z0-9_-]+$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** The first characters a spreadsheet runs as a formula (= + - @ tab CR), as code points. */
const FORMULA = "(61, 43, 45, 64, 9, 13)";

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`refusing to build an export statement with an unexpected ${what}`);
}

/**
 * An instant as the API writes it (`toISOString`: milliseconds, `Z`). `to_char` cost as much as
 * the rest of a row (1 µs); the timestamp's own text is cheap, but drops trailing zeros of its
 * fraction. Cut to the millisecond, one microsecond more always has six digits
 * (`2026-11-26 13:46:18.509001`), so its first 23 characters with a `T` are the instant — the
 * millisecond cut as `to_char` and `toISOString` cut it. (The text is Postgres' default
 * DateStyle, ISO, which the driver's own date parsing relies on too.)
 */
export const ISO_INSTANT = `replace(left((date_trunc('milliseconds', submitted_at at time zone 'UTC') + interval '1 microsecond')::text, 23), ' ', 'T') || 'Z'`;

/** What an export statement writes: the form's rows and columns, and which of them. */
export interface ExportShape {
  formId: string;
  columns: readonly Column[];
  range: Range;
  quiz: boolean;
  /** Test answers too, flagged in a last column. */
  withTest: boolean;
  /** The language each respondent read, as a column (a form in several languages). */
  lang: boolean;
  /** A filter (SPEC §18), its values read from `p`. */
  filter: CopyWhereSql | null;
}

/**
 * The rows an export reads: the form's, in the range, test answers if asked, and with a filter
 * (SPEC §18) those it matches. Its values are read from `p` (`whereCopySql`), which `exportFrom`
 * puts before the select.
 */
export function exportWhere({ formId, range, withTest, filter }: ExportShape): string {
  check(UUID.test(formId), "form id");
  for (const at of [range.since, range.until]) check(at === null || INSTANT.test(at), "instant");
  const where = [`form_id = '${formId}'`, testAnswers(withTest)];
  if (range.since) where.push(`submitted_at >= '${range.since}'`);
  if (range.until) where.push(`submitted_at < '${range.until}'`);
  if (filter) where.push(filter.text);
  return where.join(" and ");
}

/** An export's select up to its FROM list: with a filter, its values' row `p` before it. */
export const exportFrom = (select: string, filter: CopyWhereSql | null) =>
  `${filter ? `${filter.values} ` : ""}select ${select} from responses`;

/** `payload -> 'a' ->> 'b'`: the arrow operators read faster than a `#>>` path. */
const read = (path: string[], text: boolean) =>
  `payload${path.map((p, i) => `${text && i === path.length - 1 ? " ->> " : " -> "}'${p}'`).join("")}`;

/**
 * A cell a spreadsheet would run as a formula gets a leading quote. The first character's code
 * point compared as an integer: `left(v, 1) in ('=', …)` cost three times as much.
 */
const guarded = (v: string) =>
  `case when ascii(${v}) in ${FORMULA} then '''' || ${v} else ${v} end`;

/**
 * The LATERAL that reads each column's answer once per row, as `a.c0`, `a.c1`, …: a list's as its
 * jsonb text (`listText` takes it apart), any other as text.
 */
export function answerReads(columns: readonly Column[]): string {
  // the paths are written into the statement here, so they are checked here
  for (const c of columns)
    check(
      c.path.every((p) => NAME.test(p)),
      "column path",
    );
  if (columns.length === 0) return "";
  const reads = columns.map(
    (c, i) => `${c.list ? `(${read(c.path, false)})::text` : read(c.path, true)} as c${i}`,
  );
  return `, lateral (select ${reads.join(", ")} offset 0) as a`;
}

/**
 * Whether `t`, a list answer's jsonb text, is a list of strings whose items can be cut out of the
 * text as it is (`items`): no escape (every quote is then a delimiter), and neither a first item
 * starting with `[` nor a last one ending with `]` (the trim would take those brackets too).
 */
const plain = (t: string) =>
  `${t} like '["%"]' and strpos(${t}, chr(92)) = 0 and ${t} not like '["[%' and ${t} not like '%]"]'`;

/**
 * The items of a `plain` list joined with `; `: each `", "` between two items made `; `, and the
 * `["` and `"]` around them trimmed off. (Cutting them out with substr and length cost more:
 * both count characters one by one.)
 */
const items = (t: string) => `btrim(replace(${t}, '", "', '; '), '[]"')`;

/** Any list answer's text, the exact way: items joined by `formdown_join_list`, or the value. */
const exactList = (t: string, path: string[]) =>
  `case when left(${t}, 1) = '[' then formdown_join_list(${read(path, false)}) else ${read(path, true)} end`;

/** A list answer's items joined with `; ` as `cellText` does, from `t`, its jsonb text (below). */
export function listText(t: string, path: string[]): string {
  return `case when ${plain(t)} then ${items(t)} else (${exactList(t, path)}) end`;
}

/**
 * A checkbox or ranking answer from `t`, its jsonb text: the items joined with `; `. Such answers
 * are lists of strings, and jsonb writes them as `["a", "b"]`: without a backslash every quote
 * is a delimiter, so the items are the text between `["`, `", "` and `"]`, cut out with plain
 * string functions. Anything else — an escape, an empty list, a value of another type — takes
 * the exact path, which Postgres only evaluates for those rows: `formdown_join_list` (a SQL
 * function, see the migrations; a subquery written here slowed every row), or the value itself
 * when it is not a list.
 */
function list(t: string, path: string[]): string {
  const fast = `(case when ascii(substr(${t}, 3, 1)) in ${FORMULA} then '''' else '' end) || ${items(t)}`;
  return `case when ${plain(t)} then ${fast} else ${guarded(`(${exactList(t, path)})`)} end`;
}

export function copyCsvStatement(shape: ExportShape): string {
  const { columns, quiz, withTest, lang, filter } = shape;
  // every answer is read once, into the LATERAL, which OFFSET 0 keeps apart: a cell's expression
  // names its value two to five times, and each mention would read the JSON again (reading the
  // scalars there too took the rate from 0.60x to 0.74x of a bare COPY, issue 28)
  const answers = answerReads(columns);
  const cells = columns.map(
    (c, i) => `${c.list ? list(`a.c${i}`, c.path) : guarded(`a.c${i}`)} as "${c.header}"`,
  );
  if (quiz) cells.push(`score->>'points' as score_points`, `score->>'percent' as score_percent`);
  // with the test answers asked for, a last column says which they are
  if (withTest) cells.push(`case when test then 'true' end as test`);
  const where = exportWhere(shape);
  const select = `id, ${ISO_INSTANT} as submitted_at${lang ? ", lang" : ""}${cells.map((c) => `, ${c}`).join("")}`;
  return `copy (${exportFrom(select, filter)}${answers} where ${where} order by responses.submitted_at desc, responses.id desc) to stdout with (format csv, header true)`;
}
