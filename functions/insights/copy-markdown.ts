import {
  answerReads,
  type ExportShape,
  exportFrom,
  exportWhere,
  ISO_INSTANT,
  listText,
} from "./copy-csv.ts";

/**
 * The Markdown export written by Postgres (issue 28): each response is one table line built in
 * the statement, `| id | submitted_at | cells… |`, each cell's text as `cellText` gives it and
 * escaped as `escapeCell` does. Most cells hold nothing Markdown would read as syntax: they are
 * written as they are, after one regular expression looks; the others go through
 * `formdown_markdown_cell` (a SQL function, see the migrations), which escapes them the same
 * way. The lines leave in CSV format with a delimiter and a quote character no escaped cell
 * holds (control characters are shown as U+FFFD, line breaks as <br>), so none is quoted.
 * Assembled from checked values only, as the CSV statement is.
 */
const SYNTAX =
  String.raw`'[\\` +
  "`" +
  String.raw`*\[\]<>|_\r\n\x01-\x08\x0b\x0c\x0e-\x1f\x7f]|^[[:space:]]*([#+-]|[0-9]+[.)])[[:space:]]'`;
const escaped = (v: string) =>
  `case when ${v} ~ ${SYNTAX} then formdown_markdown_cell(${v}) else ${v} end`;

export function copyMarkdownStatement(shape: ExportShape): string {
  const { columns, quiz, withTest, lang, filter } = shape;
  // every answer is read once, into the LATERAL, as in the CSV statement
  const answers = answerReads(columns);
  const cells = [
    "id::text",
    ISO_INSTANT,
    ...(lang ? ["coalesce(lang, '')"] : []),
    ...columns.map((c, i) =>
      escaped(`coalesce(${c.list ? listText(`a.c${i}`, c.path) : `a.c${i}`}, '')`),
    ),
    ...(quiz ? ["coalesce(score->>'points', '')", "coalesce(score->>'percent', '')"] : []),
    ...(withTest ? ["case when test then 'true' else '' end"] : []),
  ];
  const line = `'| ' || ${cells.join(" || ' | ' || ")} || ' |'`;
  return `copy (${exportFrom(line, filter)}${answers} where ${exportWhere(shape)}
    order by responses.submitted_at desc, responses.id desc) to stdout with (format csv, delimiter e'\\x01', quote e'\\x02')`;
}
