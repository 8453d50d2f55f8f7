// The CSV and Markdown exports on Postgres, written byte by byte (issue 28). COPY's fields are
// copied from its chunks into one output buffer per chunk: no string is made for a field, a row
// or a line, where the string writer (copy-rows.ts with copy-lines.ts' line) made some twenty a
// row and the garbage collector spent more than the writing. A CSV export of a million rows took
// 1.1–1.7 s of the server's CPU against Postgres' 1.0–1.2 s, so the server set the pace (0.76–0.97
// s now, bench/export.ts); the byte writer takes 0.48–0.50x the CPU of the string one
// (`bench/csv-rows.ts`). A row with an escape (copy-bytes.ts) and a cell the format must change
// (CSV: quoted or neutralised; Markdown: escaped; a list that is not plain strings) are still
// written by the string functions the batched path shares, so the file is byte for byte the same.
import type { Buffer } from "node:buffer";
import { ascii, copyRows, isNull, nextTab, Out } from "./copy-bytes.ts";
import {
  csvText,
  type Field,
  jsNumber,
  jsonNumber,
  listCell,
  markdownText,
  numberCell,
  pgInstant,
} from "./copy-rows.ts";

/**
 * How a cell after the id and the instant is written: as its text, a list, a number (its jsonb
 * text: a number is never neutralised, SPEC §23), or a `t` flag.
 */
export type TableCell = "text" | "list" | "number" | "flag";

/** How a format frames and changes its cells. */
export interface Dialect {
  /** Bytes that make the format change a cell, wherever they are in it. */
  any: Uint8Array;
  /** Bytes a cell that must change for how it starts may start with (`start` says). */
  first: Uint8Array;
  /** Whether the cell written at buf[from, to) must change for how it starts. */
  start(buf: Buffer, from: number, to: number): boolean;
  /** A cell's text (bytes, one a character) as the format writes it. */
  cell(t: string): string;
  /** What opens a row, parts its fields (the id, the instant, the cells) and closes it. */
  open: Buffer;
  sep: Buffer;
  close: Buffer;
}

const table = (chars: string, ranges: [number, number][] = []) => {
  const t = new Uint8Array(256);
  for (const c of chars) t[c.charCodeAt(0)] = 1;
  for (const [from, to] of ranges) t.fill(1, from, to + 1);
  return t;
};

/**
 * What `csvText` changes: a start a spreadsheet runs as a formula, a quote, comma or line break.
 * A cell starting with a space, a line break or a BOM's first byte is read by `csvText` (a
 * formula's sign may follow them).
 */
const CSV_START = table("=+-@\t\r\n \xef");
export const CSV: Dialect = {
  any: table('",\r\n'),
  first: CSV_START,
  start: (buf, from, to) => from < to && CSV_START[buf[from]!] === 1,
  cell: csvText,
  open: ascii(""),
  sep: ascii(","),
  close: ascii("\r\n"),
};

/**
 * What `markdownText` changes: a syntax or control character or a byte beyond ASCII anywhere,
 * and a block marker at the start (spaces, then `#`, `>`, `+` or `-`, or digits and `.` or `)`,
 * then a space).
 */
export const MARKDOWN: Dialect = {
  any: table("\\`*[]<>|_", [
    [0x00, 0x1f],
    [0x7f, 0xff],
  ]),
  first: table(" #>+-0123456789"),
  start(buf, from, to) {
    let i = from;
    while (i < to && buf[i] === 32) i++;
    const c = buf[i];
    if (c === 35 || c === 62 || c === 43 || c === 45) return buf[i + 1] === 32 && i + 1 < to;
    let digits = i;
    while (digits < to && buf[digits]! >= 48 && buf[digits]! <= 57) digits++;
    return (
      digits > i &&
      digits + 1 < to &&
      (buf[digits] === 46 || buf[digits] === 41) &&
      buf[digits + 1] === 32
    );
  },
  cell: markdownText,
  open: ascii("| "),
  sep: ascii(" | "),
  close: ascii(" |\n"),
};

/** A cell's text by its kind, before the format's own escaping (the batched path's functions). */
const CELL_TEXT: Record<TableCell, (f: Field) => string> = {
  text: (f) => f ?? "",
  list: listCell,
  number: numberCell,
  flag: (f) => (f === "t" ? "true" : ""),
};

/**
 * A row's line in `dialect` from its fields as strings, their escapes undone: the string writer,
 * for the rows the byte writer hands over (an escape) and as its measure.
 */
export function tableLine(dialect: Dialect, kinds: readonly TableCell[]) {
  const [open, sep, close] = [dialect.open, dialect.sep, dialect.close].map((b) =>
    b.toString("latin1"),
  );
  const cells = kinds.map((kind) => CELL_TEXT[kind]);
  return (fields: Field[]) => {
    // a uuid and an instant: nothing in them is quoted, neutralised or escaped
    let out = `${open}${fields[0]}${sep}${pgInstant(fields[1]!)}`;
    for (let i = 0; i < cells.length; i++) {
      const f = fields[i + 2] as Field;
      // a JSON number: digits, sign, point and exponent, nothing a format changes
      out += `${sep}${kinds[i] === "number" && jsonNumber(f) ? jsNumber(f) : dialect.cell(cells[i]!(f))}`;
    }
    return `${out}${close}`;
  };
}

const QUOTE = 34;

/** A chunk's output in a dialect: its cells as the format writes them. */
class TableOut extends Out {
  private readonly dialect: Dialect;
  constructor(size: number, dialect: Dialect) {
    super(size);
    this.dialect = dialect;
  }
  /** What was written from `from` on, as the format writes it, when it would change it. */
  written(from: number, special: boolean) {
    if (!special) {
      if (from === this.p || this.dialect.first[this.buf[from]!] !== 1) return;
      if (!this.dialect.start(this.buf, from, this.p)) return;
    }
    const cell = this.dialect.cell(this.buf.toString("latin1", from, this.p));
    this.p = from;
    this.text(cell);
  }
  /** input[a, b) as a text cell. */
  cell(input: Buffer, a: number, b: number) {
    const out = this.buf;
    const any = this.dialect.any;
    let p = this.p;
    let special = false;
    for (let i = a; i < b; i++) {
      const c = input[i]!;
      out[p++] = c;
      if (any[c] === 1) special = true;
    }
    const from = this.p;
    this.p = p;
    this.written(from, special);
  }
  /**
   * input[a, b), a list's jsonb text, as `listCell` writes it: a list of strings (no escape in a
   * plain row) cut out of its text, its `", "` written as `; `; any other by `listCell` itself.
   */
  list(input: Buffer, text: string, a: number, b: number) {
    const last = b - 1;
    if (
      b - a >= 4 &&
      input[a] === 91 && // [
      input[a + 1] === QUOTE &&
      input[last - 1] === QUOTE &&
      input[last] === 93 // ]
    ) {
      const out = this.buf;
      const any = this.dialect.any;
      const from = this.p;
      let p = from;
      const end = last - 1;
      let i = a + 2;
      let special = false;
      while (i < end) {
        const c = input[i]!;
        if (c === QUOTE) {
          // every quote inside must open a `", "`; past the end means an item that is not a string
          if (input[i + 1] !== 44 || input[i + 2] !== 32 || input[i + 3] !== QUOTE) break;
          out[p++] = 59; // ;
          out[p++] = 32;
          i += 4;
          continue;
        }
        out[p++] = c;
        if (any[c] === 1) special = true;
        i++;
      }
      if (i === end) {
        this.p = p;
        this.written(from, special);
        return;
      }
    }
    this.text(this.dialect.cell(listCell(text.slice(a, b))));
  }
  /** input[a, b), a number column's jsonb text: a JSON number as it is, anything else as text. */
  number(input: Buffer, text: string, a: number, b: number) {
    const c = input[a]!;
    // a long one may be written with an exponent (jsNumber)
    if ((c === 45 || (c >= 48 && c <= 57)) && b - a < 9) this.bytes(input, a, b);
    else if (c === 45 || (c >= 48 && c <= 57)) this.text(jsNumber(text.slice(a, b)));
    else this.text(this.dialect.cell(numberCell(text.slice(a, b))));
  }
}

/**
 * COPY's text-format chunks of `copyStatement`'s table fields (the id, the instant, then
 * `cells`) as the dialect's lines, one output chunk per input chunk; a row with an escape is
 * written by `line`, the string writer of copy-lines.ts.
 */
export function copyTableRows(
  chunks: AsyncIterable<Uint8Array>,
  dialect: Dialect,
  cells: readonly TableCell[],
  line: (fields: Field[]) => string,
  strings = false,
): AsyncGenerator<Uint8Array> {
  // a row grows by at most its quotes doubled and a few bytes a cell; an escaped cell makes room
  const out = (size: number) => new TableOut(size, dialect);
  return copyRows(chunks, out, 8 * cells.length + 64, row, line, strings);
  function row(out: TableOut, input: Buffer, text: string, start: number, end: number) {
    out.put(dialect.open);
    let tab = nextTab(text, start, end);
    // the id: a uuid, nothing in it quoted, neutralised or escaped
    out.bytes(input, start, tab);
    out.put(dialect.sep);
    let at = tab + 1;
    tab = nextTab(text, at, end);
    out.instant(input, text, at, tab);
    for (const cell of cells) {
      at = tab + 1;
      tab = nextTab(text, at, end);
      out.put(dialect.sep);
      // NULL: an empty cell
      if (isNull(input, at, tab)) continue;
      if (cell === "text") out.cell(input, at, tab);
      else if (cell === "list") out.list(input, text, at, tab);
      else if (cell === "number") out.number(input, text, at, tab);
      else if (tab - at === 1 && input[at] === 116) out.text("true");
    }
    out.put(dialect.close);
  }
}
