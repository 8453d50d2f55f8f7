// The CSV export on Postgres, written byte by byte (issue 28). COPY's fields are copied from its
// chunks into one output buffer per chunk: no string is made for a field, a row or a line, where
// the string writer (copy-rows.ts with copy-lines.ts' line, still used for Markdown)
// made some twenty a row and the garbage collector spent more than the writing. An export of a
// million rows took 1.1–1.7 s of the server's CPU against Postgres' 1.0–1.2 s, so the server set
// the pace (0.76–0.97 s now, bench/export.ts); the byte writer takes 0.44–0.48x the CPU of the
// string one (`bench/csv-rows.ts`). A row with an escape (copy-bytes.ts) and a cell the format
// must change (quoted or neutralised, a list that is not plain strings) are still written by
// the string functions the batched path shares, so the file is byte for byte the same.
import type { Buffer } from "node:buffer";
import { copyRows, isNull, nextTab, Out } from "./copy-bytes.ts";
import { csvText, type Field, listCell } from "./copy-rows.ts";

/** How a cell after the id and the instant is written: as its text, a list, or a `t` flag. */
export type CsvCell = "text" | "list" | "flag";

/** Bytes `csvCell` changes a cell for: at its start, and anywhere in it. */
const START = new Uint8Array(256);
for (const c of "=+-@\t\r") START[c.charCodeAt(0)] = 1;
const ANY = new Uint8Array(256);
for (const c of '",\r\n') ANY[c.charCodeAt(0)] = 1;

const QUOTE = 34;

/** A chunk's CSV output: its cells as `csvText` writes them. */
class CsvOut extends Out {
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
}

/**
 * COPY's text-format chunks of `copyStatement`'s table fields (the id, the instant, then
 * `cells`) as CSV lines, one output chunk per input chunk; a row with an escape is written by
 * `line`, the string writer of copy-lines.ts.
 */
export function copyCsvRows(
  chunks: AsyncIterable<Uint8Array>,
  cells: readonly CsvCell[],
  line: (fields: Field[]) => string,
): AsyncGenerator<Uint8Array> {
  // a row grows by at most its quotes doubled and a few bytes a cell
  return copyRows(chunks, (size) => new CsvOut(size), 8 * cells.length + 64, row, line);
  function row(out: CsvOut, input: Buffer, text: string, start: number, end: number) {
    let tab = nextTab(text, start, end);
    // the id: a uuid, nothing in it quoted or neutralised
    out.bytes(input, start, tab);
    out.buf[out.p++] = 44;
    let at = tab + 1;
    tab = nextTab(text, at, end);
    out.instant(input, text, at, tab);
    for (const cell of cells) {
      at = tab + 1;
      tab = nextTab(text, at, end);
      out.buf[out.p++] = 44;
      // NULL: an empty cell
      if (isNull(input, at, tab)) continue;
      if (cell === "text") out.cell(input, at, tab);
      else if (cell === "list") out.list(input, text, at, tab);
      else if (tab - at === 1 && input[at] === 116) out.text("true");
    }
    out.buf[out.p++] = 13;
    out.buf[out.p++] = 10;
  }
}
