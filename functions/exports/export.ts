import type { AppContext } from "../context.ts";
import type { Account } from "../services/accounts.ts";
import { ownedFormHead } from "../services/form-view.ts";
import type { Range } from "../services/responses.ts";
import { formLineage } from "../services/versions/reads.ts";
import { resolveWhere } from "../services/where/resolve.ts";
import { whereCopySql } from "../services/where/sql.ts";
import { started } from "../streams.ts";
import { copyWriter } from "./copy-lines.ts";
import { copyStatement } from "./copy-statement.ts";
import { recordBatches } from "./records.ts";
import { type ExportFormat, exportLayout, FORMATS, recordWriter, written } from "./writers.ts";

export interface ExportOptions {
  /** `labels`: the questions' labels as the header row (SPEC §26); XLSX always has them. */
  header?: "ids" | "labels";
  /** CSV only: a UTF-8 byte order mark first, so a spreadsheet reads `Jürgen`, not `JÃ¼rgen`. */
  bom?: boolean;
}

/**
 * The export as a stream of chunks: one per batch of rows (or per COPY chunk), never the whole
 * set, written by the format's writer for its source (writers.ts). Test answers only `withTest`
 * (SPEC §16): then flagged, in JSON as `test: true`, in CSV and Markdown in a last column `test`.
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
  const layout = exportLayout(row.definition, lines, format, withTest, options.header);
  const answer = (chunks: () => AsyncGenerator<string | Uint8Array>) => ({
    slug: row.slug,
    format,
    contentType: format === "xlsx" ? FORMATS.xlsx : `${FORMATS[format]}; charset=utf-8`,
    chunks,
  });
  const batches = () => recordBatches(ctx, row.id, range, 1000, withTest, filter);
  if (format === "xlsx") {
    // the XLSX writer loads only when a spreadsheet is asked for
    const { xlsxWriter } = await import("./xlsx.ts");
    const writer = xlsxWriter(layout, lines, row.definition.title ?? row.slug);
    return answer(() => written(writer, batches()));
  }
  const bom = format === "csv" && options.bom === true;
  const copyOut = ctx.db.copyOut?.bind(ctx.db);
  // COPY reads each column from one path: answers under earlier ids or labels need the carry
  // below; so does a JSON record with an ending or variables (its COPY writer has neither)
  const logic = layout.columns.some((c) => c.from === "ending" || c.from === "variables");
  if (copyOut && !lines.maps && !(format === "json" && logic)) {
    // a filter (SPEC §18) travels as values the statement reads from a setting, never as text
    const where = filter.length > 0 ? whereCopySql(filter) : null;
    const shape = { ...layout, formId: row.id, range, filter: where };
    // Postgres streams each row's raw fields, as fast as a bare COPY, and this process writes
    // them as the format's lines (copy-lines.ts) while Postgres reads on. The statement has begun
    // before the answer does: one that fails at once is an error answer, not a cut download.
    const writer = copyWriter(shape, format, layout.headers);
    const rows = await started(copyOut(copyStatement(shape, writer.table), where?.params));
    return answer(() => closing(written(writer, rows, bom), rows));
  }
  // the first batch read before the answer begins, as above
  const read = await started(batches());
  const writer = recordWriter(row.definition, layout, format, lines);
  return answer(() => closing(written(writer, read, bom), read));
}

/** The chunks of `out`, its source closed however the reading ends. */
async function* closing<T>(
  out: AsyncGenerator<T>,
  source: { close(): Promise<unknown> },
): AsyncGenerator<T> {
  try {
    yield* out;
  } finally {
    await source.close();
  }
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
