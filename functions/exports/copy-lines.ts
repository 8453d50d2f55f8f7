// The COPY writers of an export on Postgres (writers.ts), written from the fields
// `copyStatement` streams (copy-bytes.ts reads them): byte for byte what the batched writer
// writes. Each format's rows are written byte by byte (copy-table.ts, copy-json.ts), and a row
// with an escape by the format's string writer, `line`; `strings` writes every row by it (the
// string writer as a writer of its own, for the case file and bench/csv-rows.ts).
import { csvLine } from "../../src/core/csv.ts";
import { copyJsonRows } from "./copy-json.ts";
import { type Field, jsonString, pgInstant } from "./copy-rows.ts";
import type { ExportShape } from "./copy-statement.ts";
import { CSV, copyTableRows, MARKDOWN, type TableCell, tableLine } from "./copy-table.ts";
import { type ExportFormat, type ExportWriter, markdownHead } from "./writers.ts";

export interface CopyWriter extends ExportWriter<Uint8Array> {
  /** Whether the statement streams a table's fields (CSV, Markdown) or a record's (JSON). */
  table: boolean;
  /** The string writer: one row's line from its fields, their escapes undone. */
  line: (fields: Field[]) => string;
  rows: (chunks: AsyncIterable<Uint8Array>) => AsyncGenerator<Uint8Array>;
}

/** The kinds of a row's cells after the id and the instant, in `tableFields`' order. */
const tableCells = ({ columns, quiz, withTest, lang }: ExportShape): TableCell[] => [
  ...(lang ? ["text" as const] : []),
  ...columns.map((c): TableCell => (c.list ? "list" : c.number ? "number" : "text")),
  ...(quiz ? ["number" as const, "number" as const] : []),
  ...(withTest ? ["flag" as const] : []),
];

/** One JSON record per row, `record()`'s keys in its order, framed as the batched path frames them. */
function jsonLines(shape: ExportShape, strings: boolean): CopyWriter {
  const { quiz, withTest } = shape;
  // shared with the byte writer, which writes the rows without an escape
  const state = { first: true };
  const lines: CopyWriter = {
    table: false,
    head: "",
    rows: (chunks) => copyJsonRows(chunks, shape, state, lines.line, strings),
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

/** How an export's rows become its lines, with its header and ending. */
export function copyWriter(
  shape: ExportShape,
  format: Exclude<ExportFormat, "xlsx">,
  headers: string[],
  strings = false,
): CopyWriter {
  if (format === "json") return jsonLines(shape, strings);
  const dialect = format === "csv" ? CSV : MARKDOWN;
  const kinds = tableCells(shape);
  const line = tableLine(dialect, kinds);
  return {
    table: true,
    head: format === "csv" ? csvLine(headers) : markdownHead(headers),
    line,
    rows: (chunks) => copyTableRows(chunks, dialect, kinds, line, strings),
    tail: () => "",
  };
}
