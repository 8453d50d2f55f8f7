// Every export writer against one case file (export-cases.ts), on both databases: the batched
// writer from stored records; COPY's byte writer and string writer from the COPY text the
// database itself writes (Postgres' COPY … TO STDOUT, PGlite's /dev/blob), the byte writer's
// input cut into chunks of many sizes; and the XLSX writer, read back with the library that
// wrote it.
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppContext } from "../../functions/context.ts";
import type { Db } from "../../functions/db/db.ts";
import { copyWriter } from "../../functions/exports/copy-lines.ts";
import { copyStatement } from "../../functions/exports/copy-statement.ts";
import { recordBatches } from "../../functions/exports/records.ts";
import {
  type ExportWriter,
  exportLayout,
  recordWriter,
  written,
} from "../../functions/exports/writers.ts";
import { xlsxWriter } from "../../functions/exports/xlsx.ts";
import { formLineage } from "../../functions/services/versions/reads.ts";
import { formSchema } from "../../src/core/schema.ts";
import { cutAt } from "../helpers/chunks.ts";
import { DB_KINDS, freshDb } from "../helpers/db.ts";
import { CASES, type ExportCase } from "./export-cases.ts";

/** Chunk sizes the byte writer's input is cut into (bytes). */
const CHUNKS = [1, 2, 3, 5, 7, 11, 13, 64, 100, 257, 1000];

/** Everything a writer writes from `input`, as one text of bytes, one a character. */
async function output<In>(writer: ExportWriter<In>, input: AsyncIterable<In>): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of written(writer, input))
    parts.push(typeof chunk === "string" ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(parts).toString("utf8");
}

/** A sheet's rows as their values (dates as ISO text, empty cells null), the header row first. */
async function sheetRows(bytes: Buffer): Promise<unknown[][]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  const rows: unknown[][] = [];
  book.worksheets[0]!.eachRow((row) =>
    rows.push(
      Array.from((row.values as unknown[]).slice(1), (v) =>
        v instanceof Date ? v.toISOString() : (v ?? null),
      ),
    ),
  );
  return rows;
}

describe.each(DB_KINDS)("every export writer writes each case alike (%s)", (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  /** COPY's text for a statement, as the database writes it. */
  let copyText: (statement: string) => Promise<Buffer>;
  let account: string;
  beforeAll(async () => {
    const fresh = await freshDb(kind);
    ({ db, drop } = fresh);
    const pg = fresh.pglite;
    copyText = async (statement) => {
      if (pg) {
        const { blob } = await pg.query(statement.replace(/ to stdout$/, " to '/dev/blob'"));
        // no rows: no blob
        return Buffer.from((await blob?.arrayBuffer()) ?? new ArrayBuffer(0));
      }
      const parts: Uint8Array[] = [];
      for await (const chunk of db.copyOut!(statement)) parts.push(chunk);
      return Buffer.concat(parts);
    };
    const [row] = await db.query<{ id: string }>(
      "insert into accounts (handler) values ('exports') returning id",
    );
    account = row!.id;
  });
  afterAll(() => drop?.());

  /** The case's form and responses stored: ids and instants fixed, newest first. */
  async function stored(c: ExportCase, n: number) {
    const definition = formSchema.parse(c.form);
    const [form] = await db.query<{ id: string }>(
      `insert into forms (account_id, slug, short_code, title, type, definition)
       values ($1, $2, $3, 'Export', $4, $5::jsonb) returning id`,
      [account, `case-${n}`, `CASE${n}`, definition.type, JSON.stringify(definition)],
    );
    const formId = form!.id;
    for (const [i, r] of c.responses.entries())
      await db.query(
        `insert into responses (id, form_id, payload, score, lang, test, seq, submitted_at)
         values ($1, $2, $3::jsonb, $4::jsonb, $5, $6, $7, $8)`,
        [
          `0000000${n}-0000-4000-8000-${String(i).padStart(12, "0")}`,
          formId,
          JSON.stringify(r.payload),
          r.score === undefined ? null : JSON.stringify(r.score),
          r.lang ?? null,
          r.test ?? false,
          i + 1,
          // microseconds, which an export cuts to milliseconds
          new Date(Date.UTC(2026, 10, 26, 13, 46, 18) - i * 1000 + 509)
            .toISOString()
            .replace("Z", "001Z"),
        ],
      );
    const ctx = { db } as AppContext;
    return { definition, formId, lines: await formLineage(ctx, { id: formId, definition }), ctx };
  }

  it.each(CASES.map((c, n) => [c.name, c, n] as const))("%s", async (_, c, n) => {
    const { definition, formId, lines, ctx } = await stored(c, n);
    const withTest = c.withTest ?? false;
    const range = { since: null, until: null };
    // two rows a batch: the keyset walk goes on past its first batch
    const batches = () => recordBatches(ctx, formId, range, 2, withTest, []);
    for (const format of ["csv", "markdown", "json"] as const) {
      const layout = exportLayout(definition, lines, format, withTest, c.header);
      const want = c[format];
      expect(await output(recordWriter(definition, layout, format, lines), batches())).toBe(want);
      const shape = { ...layout, formId, range, filter: null };
      const writer = copyWriter(shape, format, layout.headers);
      const copied = await copyText(copyStatement(shape, writer.table));
      // JSON holds the payload as jsonb writes it (`{"a": 1}`): the same records, not the same bytes
      const same = (got: string, what: string) =>
        format === "json"
          ? expect(JSON.parse(got), what).toEqual(JSON.parse(want))
          : expect(got, what).toBe(want);
      const strings = copyWriter(shape, format, layout.headers, true);
      same(await output(strings, cutAt(copied, [])), `${format}, string writer`);
      const whole = await output(copyWriter(shape, format, layout.headers), cutAt(copied, []));
      // the byte writer writes the same bytes however COPY's chunks are cut: every byte a chunk
      // of its own, and chunks of a few sizes, so each row is cut at every offset and chunks
      // end beside and inside rows of every kind
      for (const size of CHUNKS)
        for (const from of new Set([0, size >> 1])) {
          const cuts = Array.from(
            { length: Math.ceil(copied.length / size) },
            (_, i) => from + i * size,
          );
          const got = await output(
            copyWriter(shape, format, layout.headers),
            cutAt(
              copied,
              cuts.filter((c) => c > 0 && c < copied.length),
            ),
          );
          if (got !== whole)
            expect(got, `${format}, byte writer, chunks of ${size} from ${from}`).toBe(whole);
        }
      same(whole, `${format}, byte writer`);
    }
    const layout = exportLayout(definition, lines, "xlsx", withTest, c.header);
    const xlsx: Buffer[] = [];
    for await (const chunk of written(xlsxWriter(layout, lines, "Export"), batches()))
      xlsx.push(Buffer.from(chunk as Uint8Array));
    expect(await sheetRows(Buffer.concat(xlsx))).toEqual(c.xlsx);
  });
});
