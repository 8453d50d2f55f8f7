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
 * escaped as `escapeCell` does. Most cells hold nothing Markdown would read as syntax, and are
 * written as they are; the others go through `formdown_markdown_cell` (a SQL function, see the
 * migrations), which escapes them the same way. The lines leave in CSV format with a delimiter
 * and a quote character no escaped cell holds (control characters are shown as U+FFFD, line
 * breaks as <br>), so none is quoted. Assembled from checked values only, as the CSV statement is.
 *
 * Which cells need escaping is found at the cost of one regular expression per row, not per
 * cell (a regular expression is the dearest thing in the statement): a second LATERAL holds each
 * cell's text once, and the characters that are syntax anywhere in a cell are looked for in all
 * of a row's cells joined. A row holding none writes its cells as they are, unless one starts
 * with what may open a block (a space, `#`, `+`, `-`, a digit before a `.` or `)`, or a
 * character beyond ASCII, which could be a space): only that cell is matched against the block
 * markers. (Three regular expressions a row, and a list's text worked out twice, made the
 * export 0.34x of a bare COPY at 1M rows.)
 */
const CHARS = String.raw`'[\\` + "`" + String.raw`*\[\]<>|_\r\n\x01-\x08\x0b\x0c\x0e-\x1f\x7f]'`;
/** JavaScript's `\s`, as `escapeCell` reads it ([[:space:]] leaves out the no-break spaces). */
const SPACE = String.raw`[\t\n\v\f\r \u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]`;
const BLOCK = `'^${SPACE}*([#+-]|[0-9]+[.)])${SPACE}'`;

/** A cell of a row without syntax characters: escaped only if it opens with a block marker. */
const atStart = (t: string) =>
  `case when (ascii(${t}) in (9, 32, 35, 43, 45) or ascii(${t}) > 127 or (ascii(${t}) between 48 and 57 and (strpos(${t}, '.') > 0 or strpos(${t}, ')') > 0))) and ${t} ~ ${BLOCK} then formdown_markdown_cell(${t}) else ${t} end`;

export function copyMarkdownStatement(shape: ExportShape): string {
  const { columns, quiz, withTest, lang, filter } = shape;
  // every answer is read once, into the LATERAL `a`, as in the CSV statement; each cell's text
  // once, into `b`
  const answers = answerReads(columns);
  const texts = columns.map(
    (c, i) => `coalesce(${c.list ? listText(`a.c${i}`, c.path) : `a.c${i}`}, '') as t${i}`,
  );
  const cellTexts =
    columns.length > 0 ? `, lateral (select ${texts.join(", ")} offset 0) as b` : "";
  const line = (cell: (t: string) => string) => {
    const cells = [
      "'| ' || id::text",
      ISO_INSTANT,
      ...(lang ? ["coalesce(lang, '')"] : []),
      ...columns.map((_, i) => cell(`b.t${i}`)),
      ...(quiz ? ["coalesce(score->>'points', '')", "coalesce(score->>'percent', '')"] : []),
      ...(withTest ? ["case when test then 'true' else '' end"] : []),
    ];
    return `${cells.join(" || ' | ' || ")} || ' |'`;
  };
  const joined = columns.map((_, i) => `b.t${i}`).join(" || ");
  const select =
    columns.length > 0
      ? `case when ${joined} ~ ${CHARS} then ${line((t) => `formdown_markdown_cell(${t})`)} else ${line(atStart)} end`
      : line((t) => t);
  return `copy (${exportFrom(select, filter)}${answers}${cellTexts} where ${exportWhere(shape)}
    order by responses.submitted_at desc, responses.id desc) to stdout with (format csv, delimiter e'\\x01', quote e'\\x02')`;
}
