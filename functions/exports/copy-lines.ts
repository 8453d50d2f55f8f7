// The lines of an export on Postgres, written from the fields `copyStatement` streams
// (copy-bytes.ts reads them): byte for byte what the batched path in export.ts writes.
import { csvLine } from "../../src/core/csv.ts";
import { escapeCell } from "../../src/core/markdown.ts";
import { copyJsonRows } from "./copy-json.ts";
import { type Field, jsonString, pgInstant } from "./copy-rows.ts";
import type { ExportShape } from "./copy-statement.ts";
import { CSV, copyTableRows, MARKDOWN, type TableCell, tableLine } from "./copy-table.ts";
import type { ExportFormat } from "./export.ts";

export interface CopyLines {
  /** Whether the statement streams a table's fields (CSV, Markdown) or a record's (JSON). */
  table: boolean;
  head: string;
  line: (fields: Field[]) => string;
  /** COPY's chunks as the lines, byte by byte, `line` writing the rows with an escape. */
  rows: (chunks: AsyncIterable<Uint8Array>) => AsyncGenerator<Uint8Array>;
  /** What follows the last line, once they are all written. */
  tail: () => string;
}

/** The kinds of a row's cells after the id and the instant, in `tableFields`' order. */
const tableCells = ({ columns, quiz, withTest, lang }: ExportShape): TableCell[] => [
  ...(lang ? ["text" as const] : []),
  ...columns.map((c): TableCell => (c.list ? "list" : c.number ? "number" : "text")),
  ...(quiz ? ["number" as const, "number" as const] : []),
  ...(withTest ? ["flag" as const] : []),
];

/** One JSON record per row, `record()`'s keys in its order, framed as the batched path frames them. */
function jsonLines(shape: ExportShape): CopyLines {
  const { quiz, withTest } = shape;
  // shared with the byte writer, which writes the rows without an escape
  const state = { first: true };
  const lines: CopyLines = {
    table: false,
    head: "",
    rows: (chunks) => copyJsonRows(chunks, shape, state, lines.line),
    line([id, at, version, lang, payload, ...rest]) {
      let out = `${state.first ? "[\n" : ",\n"}{"id":"${id}","submitted_at":"${pgInstant(at!)}","version":${version}`;
      state.first = false;
      if (lang) out += `,"lang":${jsonString(lang)}`;
      out += `,"payload":${payload}`;
      if (quiz) out += `,"score":${rest[0] ?? "null"}`;
      if (withTest && rest[quiz ? 1 : 0] === "t") out += `,"test":true`;
      return `${out}}`;
    },
    tail: () => (state.first ? "[]\n" : "\n]\n"),
  };
  return lines;
}

export const markdownHead = (headers: string[]) =>
  `| ${headers.map(escapeCell).join(" | ")} |\n| ${headers.map(() => "---").join(" | ")} |\n`;

/** How an export's rows become its lines, with its header and ending. */
export function copyLines(shape: ExportShape, format: ExportFormat, headers: string[]): CopyLines {
  if (format === "json") return jsonLines(shape);
  const dialect = format === "csv" ? CSV : MARKDOWN;
  const kinds = tableCells(shape);
  const line = tableLine(dialect, kinds);
  return {
    table: true,
    head: format === "csv" ? csvLine(headers) : markdownHead(headers),
    line,
    rows: (chunks) => copyTableRows(chunks, dialect, kinds, line),
    tail: () => "",
  };
}
