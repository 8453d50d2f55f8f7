import { cellText, csvLine, exportColumns } from "../../src/core/csv.ts";
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

export const FORMATS = {
  csv: "text/csv",
  json: "application/json",
  markdown: "text/markdown",
} as const;
export type ExportFormat = keyof typeof FORMATS;

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
) {
  const row = await ownedFormHead(ctx, account, slug);
  // every answer ever given (SPEC §16): earlier ids read as the live field that carries them on,
  // retired fields after the live ones
  const lines = await formLineage(ctx, row);
  const filter = await resolveWhere(ctx, row, where, lines);
  const columns = [
    ...exportColumns(row.definition.fields, row.definition.hidden),
    ...retiredColumns(lines, format === "csv" ? " (retired)" : ""),
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
  const copyOut = ctx.db.copyOut?.bind(ctx.db);
  // COPY reads each column from one path: answers under earlier ids or labels need the carry below
  if (copyOut && !lines.maps) {
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
          ...columns.map((c) => c.read(payload)),
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
