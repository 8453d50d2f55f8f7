import { type Range, testAnswers } from "../services/responses.ts";
import type { CopyWhereSql } from "../services/where/sql.ts";
import type { Layout } from "./writers.ts";

// The statement an export on Postgres streams (issue 28): each row's raw fields, in COPY's text
// format, which copy-lines.ts writes as CSV, JSON or Markdown lines. COPY takes no bind
// parameters, so it is assembled — from values that cannot carry SQL: a UUID from our own
// database, ISO instants we formatted, and field/row/hidden names the form schema restricts to
// [A-Za-z0-9_-] (checked again here). A filter's values never enter the text: they travel
// apart, in a setting the statement reads (whereCopySql).
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NAME = /^[A-Za-z0-9_-]+$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`refusing to build an export statement with an unexpected ${what}`);
}

/** What an export statement writes: the form's rows and columns, and which of them. */
export interface ExportShape extends Pick<Layout, "columns" | "quiz" | "withTest" | "lang"> {
  formId: string;
  range: Range;
  /** A filter (SPEC §18), its values read from `p`. */
  filter: CopyWhereSql | null;
}

/**
 * The rows an export reads: the form's, in the range, test answers if asked, and with a filter
 * (SPEC §18) those it matches. Its values are read from `p` (`whereCopySql`), which `exportFrom`
 * puts before the select.
 */
function exportWhere({ formId, range, withTest, filter }: ExportShape): string {
  check(UUID.test(formId), "form id");
  for (const at of [range.since, range.until]) check(at === null || INSTANT.test(at), "instant");
  const where = [`form_id = '${formId}'`, testAnswers(withTest)];
  if (range.since) where.push(`submitted_at >= '${range.since}'`);
  if (range.until) where.push(`submitted_at < '${range.until}'`);
  if (filter) where.push(filter.text);
  return where.join(" and ");
}

/** An export's select up to its FROM list: with a filter, its values' row `p` before it. */
const exportFrom = (select: string, filter: CopyWhereSql | null) =>
  `${filter ? `${filter.values} ` : ""}select ${select} from responses`;

/** `payload -> 'a' ->> 'b'`: the arrow operators read faster than a `#>>` path. */
const read = (path: string[], text: boolean) =>
  `payload${path.map((p, i) => `${text && i === path.length - 1 ? " ->> " : " -> "}'${p}'`).join("")}`;

/**
 * The fields of a CSV or Markdown row: id, the instant in UTC, the language, each column's
 * answer (a list or a number as its jsonb text, so a number is told from a text; anything else
 * as text), the score's numbers, the test flag.
 */
function tableFields({ columns, quiz, withTest, lang }: ExportShape): string[] {
  // the paths are written into the statement here, so they are checked here
  for (const c of columns)
    check(
      c.path.every((p) => NAME.test(p)),
      "column path",
    );
  return [
    "id",
    "submitted_at at time zone 'UTC'",
    ...(lang ? ["lang"] : []),
    ...columns.map((c) =>
      c.from === "ending"
        ? "ending"
        : c.from === "variables"
          ? `(variables -> '${c.path[0]}')::text`
          : c.list || c.number
            ? `(${read(c.path, false)})::text`
            : read(c.path, true),
    ),
    ...(quiz ? ["(score->'points')::text", "(score->'percent')::text"] : []),
    ...(withTest ? ["test"] : []),
  ];
}

/** The fields of a JSON record (`record()` in services/responses.ts), in its key order. */
const recordFields = ({ quiz, withTest }: ExportShape) => [
  "id",
  "submitted_at at time zone 'UTC'",
  "coalesce(version, 1)",
  "lang",
  "payload",
  ...(quiz ? ["score"] : []),
  ...(withTest ? ["test"] : []),
];

/** `COPY … TO STDOUT` of the rows an export writes, newest first, in the text format. */
export function copyStatement(shape: ExportShape, table: boolean): string {
  const fields = table ? tableFields(shape) : recordFields(shape);
  return `copy (${exportFrom(fields.join(", "), shape.filter)} where ${exportWhere(shape)} order by submitted_at desc, id desc) to stdout`;
}
