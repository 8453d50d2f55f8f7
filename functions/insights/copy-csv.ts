// The CSV export on Postgres, written byte by byte (issue 28). COPY's fields are copied from its
// chunks into one output buffer per chunk: no string is made for a field, a row or a line, where
// the string writer (copy-rows.ts with copy-lines.ts' line, still used for JSON and Markdown)
// made some twenty a row and the garbage collector spent more than the writing. An export of a
// million rows took 1.1–1.7 s of the server's CPU against Postgres' 1.0–1.2 s, so the server set
// the pace (0.76–0.97 s now, bench/export.ts); the byte writer takes 0.45–0.48x the CPU of the
// string one (`bench/csv-rows.ts`). A row with an escape (a backslash in COPY's text format
// other than a NULL's `\N`) and a cell the format must change (quoted or neutralised, a list
// that is not plain strings) are still written by the string functions the batched path
// shares, so the file is byte for byte the same.
import { Buffer } from "node:buffer";
import { csvText, type Field, listCell, rowFields } from "./copy-rows.ts";

/** How a cell after the id and the instant is written: as its text, a list, or a `t` flag. */
export type CsvCell = "text" | "list" | "flag";

/** Bytes `csvCell` changes a cell for: at its start, and anywhere in it. */
const START = new Uint8Array(256);
for (const c of "=+-@\t\r") START[c.charCodeAt(0)] = 1;
const ANY = new Uint8Array(256);
for (const c of '",\r\n') ANY[c.charCodeAt(0)] = 1;

const QUOTE = 34;

/** One chunk's output, grown when a cell written as text needs more room than planned. */
class Out {
  buf: Buffer;
  p = 0;
  constructor(size: number) {
    this.buf = Buffer.allocUnsafe(size);
  }
  room(n: number) {
    if (this.p + n <= this.buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.p + n));
    this.buf.copy(bigger, 0, 0, this.p);
    this.buf = bigger;
  }
  /** Text of bytes, one a character. */
  text(s: string) {
    this.room(s.length);
    this.p += this.buf.write(s, this.p, "latin1");
  }
  /** What was written from `from` on, as `csvText` writes it, when it would change it. */
  csv(from: number, special: boolean) {
    if (!special) return;
    const cell = csvText(this.buf.toString("latin1", from, this.p));
    this.p = from;
    this.text(cell);
  }
  /** input[a, b) as a text cell. */
  cell(input: Buffer, a: number, b: number) {
    const out = this.buf;
    let p = this.p;
    let special = a < b && START[input[a]!] === 1;
    for (let i = a; i < b; i++) {
      const c = input[i]!;
      out[p++] = c;
      if (ANY[c] === 1) special = true;
    }
    const from = this.p;
    this.p = p;
    this.csv(from, special);
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
      const from = this.p;
      let p = from;
      const end = last - 1;
      let i = a + 2;
      let special = i < end && START[input[i]!] === 1;
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
        if (ANY[c] === 1) special = true;
        i++;
      }
      if (i === end) {
        this.p = p;
        this.csv(from, special);
        return;
      }
    }
    this.text(csvText(listCell(text.slice(a, b))));
  }
  /**
   * `submitted_at at time zone 'UTC'` as Postgres writes it (`2026-11-26 13:46:18.509001`) as
   * the API writes an instant (`2026-11-26T13:46:18.509Z`), as `pgInstant` does.
   */
  instant(input: Buffer, text: string, a: number, b: number) {
    const n = b - a;
    if (n < 19 || input[a + 4] !== 45 || input[a + 10] !== 32)
      throw new Error(
        `the export read an instant it cannot write: ${text.slice(a, b)} (DateStyle must be ISO)`,
      );
    const out = this.buf;
    let p = this.p;
    for (let i = a; i < a + 10; i++) out[p++] = input[i]!;
    out[p++] = 84; // T
    for (let i = a + 11; i < a + 19; i++) out[p++] = input[i]!;
    out[p++] = 46; // .
    const digits = Math.min(b, a + 23);
    for (let i = a + 20; i < digits; i++) out[p++] = input[i]!;
    for (let i = Math.max(0, digits - a - 20); i < 3; i++) out[p++] = 48; // 0
    out[p++] = 90; // Z
    this.p = p;
  }
}

/**
 * COPY's text-format chunks of `copyStatement`'s table fields (the id, the instant, then
 * `cells`) as CSV lines, one output chunk per input chunk; a row with an escape is written by
 * `line`, the string writer of copy-lines.ts.
 */
export async function* copyCsvRows(
  chunks: AsyncIterable<Uint8Array>,
  cells: readonly CsvCell[],
  line: (fields: Field[]) => string,
): AsyncGenerator<Uint8Array> {
  let rest: Buffer | null = null;
  const fields: Field[] = [];
  for await (const chunk of chunks) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const input: Buffer = rest ? Buffer.concat([rest, bytes]) : bytes;
    // searched as text (indexOf), copied as bytes: one byte a character, the same offsets
    const text = input.toString("latin1");
    // a row grows by at most its quotes doubled and a few bytes a cell
    const out = new Out(input.length * 2 + 1024);
    let start = 0;
    let backslash = text.indexOf("\\");
    for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", start)) {
      if (backslash >= 0 && backslash < start) backslash = text.indexOf("\\", start);
      if (backslash >= 0 && backslash < end && !onlyNulls(text, backslash, start, end)) {
        rowFields(text, start, end, false, fields);
        out.text(line(fields));
      } else {
        out.room(2 * (end - start) + 8 * cells.length + 64);
        let tab = nextTab(text, start, end);
        // the id: a uuid, nothing in it quoted or neutralised
        for (let i = start; i < tab; i++) out.buf[out.p++] = input[i]!;
        out.buf[out.p++] = 44;
        let at = tab + 1;
        tab = nextTab(text, at, end);
        out.instant(input, text, at, tab);
        for (const cell of cells) {
          at = tab + 1;
          tab = nextTab(text, at, end);
          out.buf[out.p++] = 44;
          // NULL (`\N`, the only backslash a row here holds): an empty cell
          if (input[at] === 92 && tab - at === 2) continue;
          if (cell === "text") out.cell(input, at, tab);
          else if (cell === "list") out.list(input, text, at, tab);
          else if (tab - at === 1 && input[at] === 116) out.text("true");
        }
        out.buf[out.p++] = 13;
        out.buf[out.p++] = 10;
      }
      start = end + 1;
    }
    rest = start < input.length ? Buffer.from(input.subarray(start)) : null;
    if (out.p > 0) yield out.buf.subarray(0, out.p);
  }
  if (rest) throw new Error("the export's COPY ended inside a row");
}

/**
 * Whether every backslash of the row text[start, end), the first at `from`, is a NULL: a whole
 * field `\N` (an unanswered question, a response without a language). Such a row is written
 * here as one without any.
 */
function onlyNulls(text: string, from: number, start: number, end: number): boolean {
  for (let at = from; at >= 0 && at < end; at = text.indexOf("\\", at + 2)) {
    const whole =
      text.charCodeAt(at + 1) === 78 && // N
      (at === start || text.charCodeAt(at - 1) === 9) &&
      (at + 2 === end || text.charCodeAt(at + 2) === 9);
    if (!whole) return false;
  }
  return true;
}

/** The tab that ends the field starting at `at`, or the row's end. */
function nextTab(text: string, at: number, end: number): number {
  const tab = text.indexOf("\t", at);
  return tab < 0 || tab > end ? end : tab;
}
