import { cellText, csvLine, exportColumns } from "../../src/core/csv.ts";
import { logicColumns } from "../../src/core/logic/columns.ts";
import { escapeCell } from "../../src/core/markdown.ts";
import { carry } from "../../src/core/plan/lineage.ts";
import type { AppContext } from "../context.ts";
import type { Account } from "../services/accounts.ts";
import { ownedFormHead } from "../services/form-view.ts";
import { type Range, record } from "../services/responses.ts";
import { formLineage, retiredColumns } from "../services/versions/reads.ts";
import { resolveWhere } from "../services/where/resolve.ts";
import { whereCopySql } from "../services/where/sql.ts";
import { type Started, started } from "../streams.ts";
import { copyLines, markdownHead } from "./copy-lines.ts";
import { copyStatement } from "./copy-statement.ts";
import { recordBatches, type StoredRecord } from "./records.ts";
import type { XlsxKind } from "./xlsx.ts";

export const FORMATS = {
  csv: "text/csv",
  json: "application/json",
  markdown: "text/markdown",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
} as const;
export type ExportFormat = keyof typeof FORMATS;

export interface ExportOptions {
  /** `labels`: the questions' labels as the header row (SPEC §26); XLSX always has them. */
  header?: "ids" | "labels";
  /** CSV only: a UTF-8 byte order mark first, so a spreadsheet reads `Jürgen`, not `JÃ¼rgen`. */
  bom?: boolean;
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
 * The export as a stream of text chunks: one chunk per batch of rows, never the whole set. Test
 * answers only `withTest` (SPEC §16): then flagged, in JSON as `test: true`, in CSV and Markdown
 * in a last column `test`.
 */
export async function exportResponses(
  ctx: AppContext,
  account: Account,
  slug: string,
  format: ExportFormat,
  range: Range,
  withTest = false,
  where: unknown = undefined,
  options: ExportOptions = {},
) {
  const row = await ownedFormHead(ctx, account, slug);
  // every answer ever given (SPEC §16): earlier ids read as the live field that carries them on,
  // retired fields after the live ones
  const lines = await formLineage(ctx, row);
  const filter = await resolveWhere(ctx, row, where, lines);
  // the logic's (SPEC §24) last: the ending reached, each variable's value
  const logic = logicColumns(row.definition);
  const columns = [
    ...exportColumns(row.definition.fields, row.definition.hidden),
    ...retiredColumns(lines, format === "csv" ? " (retired)" : ""),
    ...logic,
  ];
  const quiz = row.definition.type === "quiz";
  // a form in several languages: which one each respondent read (SPEC §20)
  const lang = (row.definition.languages ?? []).length > 0;
  const headers = [
    "id",
    "submitted_at",
    ...(lang ? ["lang"] : []),
    ...columns.map((c) => c.header),
    ...(quiz ? ["score_points", "score_percent"] : []),
    ...(withTest ? ["test"] : []),
  ];
  const labels = format === "xlsx" || options.header === "labels";
  if (labels) {
    const named = new Map(columns.map((c) => [c.header, c.label ?? c.header]));
    headers.splice(0, headers.length, ...headers.map((h) => named.get(h) ?? LABELS[h] ?? h));
  }
  const bom = format === "csv" && options.bom === true;
  if (format === "xlsx") {
    const kinds: XlsxKind[] = [
      "text",
      "instant",
      ...(lang ? (["text"] as const) : []),
      ...columns.map(
        (c): XlsxKind => (c.list ? "list" : c.number ? "number" : c.date ? "date" : "text"),
      ),
      ...(quiz ? (["number", "number"] as const) : []),
      ...(withTest ? (["boolean"] as const) : []),
    ];
    async function* rows(): AsyncGenerator<unknown[][]> {
      for await (const batch of recordBatches(ctx, row.id, range, 1000, withTest, filter))
        yield batch.map((r) => {
          const score = r.score as { points?: number; percent?: number } | null;
          const payload = carry(r.payload, lines);
          return [
            r.id,
            r.submitted_at,
            ...(lang ? [r.lang ?? ""] : []),
            ...columns.map((c) => c.read(payload, r)),
            ...(quiz ? [score?.points, score?.percent] : []),
            ...(withTest ? [r.test] : []),
          ];
        });
    }
    // exceljs loads only when a spreadsheet is asked for (it costs memory and start-up)
    const { xlsxChunks } = await import("./xlsx.ts");
    return {
      slug: row.slug,
      format,
      contentType: FORMATS.xlsx,
      chunks: () => xlsxChunks(headers, kinds, rows(), row.definition.title ?? row.slug),
    };
  }
  const copyOut = ctx.db.copyOut?.bind(ctx.db);
  // COPY reads each column from one path: answers under earlier ids or labels need the carry
  // below; so does a JSON record with an ending or variables (its COPY writer has neither)
  if (copyOut && !lines.maps && !(format === "json" && logic.length > 0)) {
    // a filter (SPEC §18) travels as values the statement reads from a setting, never as text
    const where = filter.length > 0 ? whereCopySql(filter) : null;
    const shape = { formId: row.id, columns, range, quiz, withTest, lang, filter: where };
    // Postgres streams each row's raw fields, as fast as a bare COPY, and this process writes
    // them as the format's lines (copy-lines.ts) while Postgres reads on. The statement has begun
    // before the answer does: one that fails at once is an error answer, not a cut download.
    const writer = copyLines(shape, format, headers);
    const rows = await started(copyOut(copyStatement(shape, writer.table), where?.params));
    const copied = async function* (): AsyncGenerator<string | Uint8Array> {
      try {
        if (bom) yield "\uFEFF";
        if (writer.head) yield writer.head;
        yield* writer.rows(rows);
        const tail = writer.tail();
        if (tail) yield tail;
      } finally {
        await rows.close();
      }
    };
    return {
      slug: row.slug,
      format,
      contentType: `${FORMATS[format]}; charset=utf-8`,
      chunks: copied,
    };
  }
  // the first batch read before the answer begins, as above
  const batches = await started(recordBatches(ctx, row.id, range, 1000, withTest, filter));
  async function* chunks(): AsyncGenerator<string> {
    try {
      yield* linesOf(batches);
    } finally {
      await batches.close();
    }
  }
  async function* linesOf(batches: Started<StoredRecord[]>): AsyncGenerator<string> {
    if (bom) yield "\uFEFF";
    if (format === "csv") yield csvLine(headers);
    if (format === "markdown") yield markdownHead(headers);
    if (format === "json") yield "[";
    let first = true;
    for await (const batch of batches) {
      const parts: string[] = [];
      for (const r of batch) {
        if (format === "json") {
          const carried = { ...r, payload: carry(r.payload, lines) };
          parts.push(`${first ? "" : ","}\n${JSON.stringify(record(row, carried))}`);
          first = false;
          continue;
        }
        const score = r.score as { points?: number; percent?: number } | null;
        const payload = carry(r.payload, lines);
        const cells = [
          r.id,
          r.submitted_at,
          ...(lang ? [r.lang ?? ""] : []),
          ...columns.map((c) => c.read(payload, r)),
          ...(quiz ? [score?.points, score?.percent] : []),
          ...(withTest ? [r.test ? "true" : ""] : []),
        ];
        parts.push(
          format === "csv"
            ? csvLine(cells)
            : `| ${cells.map((c) => escapeCell(cellText(c))).join(" | ")} |\n`,
        );
      }
      yield parts.join("");
    }
    if (format === "json") yield first ? "]\n" : "\n]\n";
  }
  return { slug: row.slug, format, contentType: `${FORMATS[format]}; charset=utf-8`, chunks };
}

/** A Web stream of the chunks, pulled as the client reads (back-pressure keeps memory flat). */
export function toStream(chunks: AsyncGenerator<string | Uint8Array>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    async pull(controller) {
      const { value, done } = await chunks.next();
      if (done) controller.close();
      else controller.enqueue(typeof value === "string" ? encoder.encode(value) : value);
    },
    async cancel() {
      await chunks.return(undefined);
    },
  });
}
