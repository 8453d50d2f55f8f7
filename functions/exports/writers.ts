// One interface for every export writer (SPEC §26). A format is written from one of two sources:
// stored records in batches (any database, earlier ids carried to the live ones; every XLSX) or,
// on Postgres, COPY's chunks (copy-lines.ts: byte by byte, with the string writer for rows with
// an escape). Every writer of a format writes the same bytes (the same cells for XLSX), and one
// case file, test/exports/export-cases.ts, is run against each of them on both databases.
import { type Column, cellText, csvLine, exportColumns } from "../../src/core/csv.ts";
import { logicColumns } from "../../src/core/logic/columns.ts";
import { escapeCell } from "../../src/core/markdown.ts";
import { carry, type Lineage } from "../../src/core/plan/lineage.ts";
import type { Form } from "../../src/core/schema.ts";
import { record } from "../services/responses.ts";
import { retiredColumns } from "../services/versions/reads.ts";
import type { StoredRecord } from "./records.ts";

export const FORMATS = {
  csv: "text/csv",
  json: "application/json",
  markdown: "text/markdown",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
} as const;
export type ExportFormat = keyof typeof FORMATS;

/** One format written from one source: what comes before the rows, the rows, what follows. */
export interface ExportWriter<In> {
  head: string;
  rows(input: AsyncIterable<In>): AsyncGenerator<string | Uint8Array>;
  /** Once the rows are written. */
  tail(): string;
}

/** An export's whole output from a writer and its input, a CSV's byte order mark first. */
export async function* written<In>(
  writer: ExportWriter<In>,
  input: AsyncIterable<In>,
  bom = false,
): AsyncGenerator<string | Uint8Array> {
  if (bom) yield "\uFEFF";
  if (writer.head) yield writer.head;
  yield* writer.rows(input);
  const tail = writer.tail();
  if (tail) yield tail;
}

/** The columns of an export, beyond the id and the instant, and its header row. */
export interface Layout {
  columns: readonly Column[];
  quiz: boolean;
  /** Test answers too, flagged in a last column. */
  withTest: boolean;
  /** The language each respondent read, as a column (a form in several languages). */
  lang: boolean;
  headers: string[];
}

/** The readable names of the columns every export has. */
const LABELS: Record<string, string> = {
  id: "Response",
  submitted_at: "Submitted at",
  lang: "Language",
  score_points: "Score",
  score_percent: "Score (%)",
  test: "Test answer",
};

/**
 * What an export of `form` holds: the live fields', then the retired fields' answers (SPEC §16),
 * the language (SPEC §20), a quiz's score, and the test flag `withTest`; headed by the ids, or
 * with `labels` (every XLSX) by the questions' labels (SPEC §26).
 */
export function exportLayout(
  form: Form,
  lines: Lineage,
  format: ExportFormat,
  withTest: boolean,
  header: "ids" | "labels" = "ids",
): Layout {
  const columns = [
    ...exportColumns(form.fields, form.hidden),
    ...retiredColumns(lines, format === "csv" ? " (retired)" : ""),
    // the logic's (SPEC §24) last: the ending reached, each variable's value
    ...logicColumns(form),
  ];
  const quiz = form.type === "quiz";
  const lang = (form.languages ?? []).length > 0;
  const ids = [
    "id",
    "submitted_at",
    ...(lang ? ["lang"] : []),
    ...columns.map((c) => c.header),
    ...(quiz ? ["score_points", "score_percent"] : []),
    ...(withTest ? ["test"] : []),
  ];
  if (format !== "xlsx" && header !== "labels")
    return { columns, quiz, withTest, lang, headers: ids };
  const named = new Map(columns.map((c) => [c.header, c.label ?? c.header]));
  const headers = ids.map((h) => named.get(h) ?? LABELS[h] ?? h);
  return { columns, quiz, withTest, lang, headers };
}

/** A stored record's cells in the layout's order, its answers read under the live ids. */
export function recordCells(
  { columns, quiz, withTest, lang }: Layout,
  lines: Lineage,
  r: StoredRecord,
  flag: (test: boolean) => unknown,
): unknown[] {
  const score = r.score as { points?: number; percent?: number } | null;
  const payload = carry(r.payload, lines);
  return [
    r.id,
    r.submitted_at,
    ...(lang ? [r.lang ?? ""] : []),
    ...columns.map((c) => c.read(payload, r)),
    ...(quiz ? [score?.points, score?.percent] : []),
    ...(withTest ? [flag(r.test)] : []),
  ];
}

export const markdownHead = (headers: string[]) =>
  `| ${headers.map(escapeCell).join(" | ")} |\n| ${headers.map(() => "---").join(" | ")} |\n`;

const markdownLine = (cells: unknown[]) =>
  `| ${cells.map((c) => escapeCell(cellText(c))).join(" | ")} |\n`;

/** The batched writer: CSV, Markdown or JSON from stored records, one chunk a batch. */
export function recordWriter(
  form: Form,
  layout: Layout,
  format: Exclude<ExportFormat, "xlsx">,
  lines: Lineage,
): ExportWriter<StoredRecord[]> {
  if (format === "json") {
    let first = true;
    return {
      head: "[",
      async *rows(batches) {
        for await (const batch of batches) {
          let part = "";
          for (const r of batch) {
            const carried = record(
              { definition: form },
              { ...r, payload: carry(r.payload, lines) },
            );
            part += `${first ? "" : ","}\n${JSON.stringify(carried)}`;
            first = false;
          }
          yield part;
        }
      },
      tail: () => (first ? "]\n" : "\n]\n"),
    };
  }
  const line = format === "csv" ? csvLine : markdownLine;
  return {
    head: format === "csv" ? csvLine(layout.headers) : markdownHead(layout.headers),
    async *rows(batches) {
      for await (const batch of batches)
        yield batch
          .map((r) => line(recordCells(layout, lines, r, (t) => (t ? "true" : ""))))
          .join("");
    },
    tail: () => "",
  };
}
