import { Buffer } from "node:buffer";
import type { Lineage } from "../../src/core/plan/lineage.ts";
import type { StoredRecord } from "./records.ts";
import { type ExportWriter, type Layout, recordCells } from "./writers.ts";
import { sheetXml } from "./xlsx-sheet.ts";
import { zipWriter } from "./zip.ts";

/** The sheet's XML handed to deflate at once (bytes): below V8's large-object size. */
const BUFFER = 64 * 1024;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A cell as a spreadsheet should hold it: numbers as numbers, dates as dates, lists as one cell. */
export type XlsxKind = "text" | "number" | "date" | "instant" | "list" | "boolean";

export function xlsxCell(value: unknown, kind: XlsxKind): unknown {
  if (value === undefined || value === null || value === "") return null;
  if (kind === "instant" || (kind === "date" && typeof value === "string" && DATE.test(value))) {
    const at =
      value instanceof Date
        ? value
        : new Date(kind === "date" ? `${value}T00:00:00Z` : String(value));
    // a date no calendar has (2026-13-01) stays the text it was
    return Number.isNaN(at.getTime()) ? String(value) : at;
  }
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

/**
 * One sheet written as it is read (SPEC §26): the workbook's few small parts, then the sheet's
 * rows deflated 64 KB of XML at a time into the archive (zip.ts), so memory holds one batch of
 * records and never the sheet. Strings are inline (no shared-string table kept in memory) and
 * never formulas: a cell that starts with `=` stays text. Written here rather than by exceljs
 * (STYLE: a library unless a bench shows it misses a goal): with the server's settings
 * (low-memory.ts) 1M responses on PGlite took its streaming writer from 165 to 253 MB, growing
 * with the rows, at 1.24 MB/s, and this writer from 180 to 198 MB, flat, at 1.87 (bench/xlsx.ts).
 * exceljs loads 20 MB of code and makes objects for every row and cell; tests read back with it.
 */
export async function* xlsxChunks(
  headers: readonly string[],
  kinds: readonly XlsxKind[],
  batches: AsyncIterable<unknown[][]>,
  sheetName = "Responses",
): AsyncGenerator<Uint8Array> {
  const zip = zipWriter();
  const name =
    sheetName
      .slice(0, 31)
      .replace(/[\\/?*[\]:]/g, " ")
      .trim() || "Responses";
  const sheet = sheetXml(headers, kinds);
  for (const [path, xml] of Object.entries(sheet.parts(name))) yield* zip.entry(path, [xml]);
  // each row's XML written into one buffer that the zip deflates when it is full: no text of a
  // batch's rows is ever made, which V8 would keep as a large object until a full collection
  async function* rows() {
    const buffer = Buffer.allocUnsafe(BUFFER);
    let used = 0;
    yield Buffer.from(sheet.head);
    for await (const batch of batches)
      for (const cells of batch) {
        const xml = sheet.row(cells.map((v, i) => xlsxCell(v, kinds[i] ?? "text")));
        // UTF-8 takes at most three bytes for each UTF-16 unit
        if (used + xml.length * 3 > BUFFER && used > 0) {
          yield buffer.subarray(0, used);
          used = 0;
        }
        if (xml.length * 3 > BUFFER) yield Buffer.from(xml);
        else used += buffer.write(xml, used);
      }
    if (used > 0) yield buffer.subarray(0, used);
    yield Buffer.from(sheet.tail);
  }
  yield* zip.entry("xl/worksheets/sheet1.xml", rows());
  yield zip.end();
}
