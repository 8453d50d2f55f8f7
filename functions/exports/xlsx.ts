import { createRequire } from "node:module";
import { PassThrough } from "node:stream";
import type ExcelJS from "exceljs";
import type { Lineage } from "../../src/core/plan/lineage.ts";
import type { StoredRecord } from "./records.ts";
import { type ExportWriter, type Layout, recordCells } from "./writers.ts";

/**
 * exceljs' streaming writer alone: its index loads the whole library (673 modules, the reader,
 * the in-memory workbook, CSV), about 11 MB more of the server's memory than the writer's 212
 * (bench/xlsx.ts measures the export's RSS).
 */
const WorkbookWriter = createRequire(import.meta.url)(
  "exceljs/lib/stream/xlsx/workbook-writer.js",
) as typeof ExcelJS.stream.xlsx.WorkbookWriter;

/** The sheet's XML the zip may hold before the writer waits for it (bytes). */
const BACKLOG = 256 * 1024;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A cell as a spreadsheet should hold it: numbers as numbers, dates as dates, lists as one cell. */
export type XlsxKind = "text" | "number" | "date" | "instant" | "list" | "boolean";

export function xlsxCell(value: unknown, kind: XlsxKind): unknown {
  const cell = typed(value, kind);
  return typeof cell === "string" ? xmlText(cell) : cell;
}

/**
 * Text as XML 1.0 may hold it. exceljs drops the C0 controls it cannot hold but writes U+FFFE
 * and U+FFFF as they are: one answer holding either made the sheet malformed (Excel calls the
 * file corrupt; LibreOffice showed the rows before it and none after). Lone surrogates become
 * U+FFFD, as the UTF-8 encoder would write them anyway.
 */
export function xmlText(text: string): string {
  return text.toWellFormed().replace(/[\uFFFE\uFFFF]/g, "\uFFFD");
}

function typed(value: unknown, kind: XlsxKind): unknown {
  if (value === undefined || value === null || value === "") return null;
  if (kind === "instant") return value instanceof Date ? value : new Date(String(value));
  if (kind === "date" && typeof value === "string" && DATE.test(value))
    return new Date(`${value}T00:00:00Z`);
  if (kind === "number" && typeof value === "number") return value;
  if (kind === "boolean" && typeof value === "boolean") return value;
  if (typeof value === "boolean") return value;
  if (Array.isArray(value))
    return value.map((v) => (typeof v === "string" ? v : JSON.stringify(v))).join("; ");
  if (typeof value === "object") return JSON.stringify(value);
  return typeof value === "number" ? value : String(value);
}

/** The XLSX writer: one sheet from stored records, its cells typed by their columns. */
export function xlsxWriter(
  layout: Layout,
  lines: Lineage,
  sheetName: string,
): ExportWriter<StoredRecord[]> {
  const { columns, quiz, withTest, lang, headers } = layout;
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
  async function* cells(batches: AsyncIterable<StoredRecord[]>) {
    for await (const batch of batches)
      yield batch.map((r) => recordCells(layout, lines, r, (t) => t));
  }
  return {
    head: "",
    rows: (batches) => xlsxChunks(headers, kinds, cells(batches), sheetName),
    tail: () => "",
  };
}

const FORMATS: Partial<Record<XlsxKind, string>> = {
  date: "yyyy-mm-dd",
  instant: "yyyy-mm-dd hh:mm:ss",
};

/**
 * One sheet written as it is read (SPEC §26): exceljs' streaming WorkbookWriter commits each
 * row into the zip as it comes, and this generator hands on what the zip has written after each
 * batch, so memory holds one batch and not the sheet. Strings are inline (no shared-string
 * table kept in memory) and never formulas: a cell that starts with `=` stays text.
 */
export async function* xlsxChunks(
  headers: readonly string[],
  kinds: readonly XlsxKind[],
  batches: AsyncIterable<unknown[][]>,
  sheetName = "Responses",
): AsyncGenerator<Uint8Array> {
  const out = new PassThrough();
  const written: Buffer[] = [];
  let ended = false;
  let failed: unknown = null;
  out.on("data", (c: Buffer) => written.push(c));
  out.on("end", () => {
    ended = true;
  });
  out.on("error", (e) => {
    failed = e;
  });
  const book = new WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  const sheet = book.addWorksheet(xmlText(sheetName.slice(0, 31).replace(/[\\/?*[\]:]/g, " ")), {
    views: [{ state: "frozen", ySplit: 1 }],
  });
  kinds.forEach((kind, i) => {
    const column = sheet.getColumn(i + 1);
    column.width = Math.min(40, Math.max(10, (headers[i] ?? "").length + 2));
    const numFmt = FORMATS[kind];
    if (numFmt) column.numFmt = numFmt;
  });
  const header = sheet.addRow(headers.map(xmlText));
  header.font = { bold: true };
  header.commit();
  // exceljs pipes the sheet's XML into the zip without waiting for it (its StreamBuf ignores
  // back-pressure): what deflate has not taken yet waits in the pipe, so the writer waits for
  // deflate here before the next batch, or a million rows of XML would wait in memory
  const backlog = () => {
    // a readable-stream@2 PassThrough (archiver's), whose lengths are in its states
    type Old = { _writableState?: { length: number }; _readableState?: { length: number } };
    const pipes = (sheet as unknown as { stream?: { pipes?: Old[] } }).stream?.pipes ?? [];
    return pipes.reduce(
      (n, p) => n + (p._writableState?.length ?? 0) + (p._readableState?.length ?? 0),
      0,
    );
  };
  const flush = function* () {
    while (written.length > 0) yield new Uint8Array(written.shift()!);
  };
  for await (const rows of batches) {
    for (const cells of rows)
      sheet.addRow(cells.map((v, i) => xlsxCell(v, kinds[i] ?? "text"))).commit();
    do {
      await new Promise((resolve) => setTimeout(resolve, 1));
      if (failed) throw failed;
      yield* flush();
    } while (backlog() > BACKLOG);
  }
  sheet.commit();
  await book.commit();
  while (!ended) {
    if (failed) throw failed;
    await new Promise((resolve) => setImmediate(resolve));
    yield* flush();
  }
  yield* flush();
}
