// The byte writers of the exports on Postgres (issue 28: copy-table.ts, copy-json.ts): COPY's
// text-format chunks read as rows, and each row's fields copied as bytes into one output buffer
// per chunk, with no string made for a field, a row or a line. A row with an escape (a
// backslash other than a NULL's `\N`) is handed to the string writer of copy-lines.ts, whose
// lines are byte for byte what the batched path writes; the byte writers write the same.
import { Buffer } from "node:buffer";
import { type Field, rowFields } from "./copy-rows.ts";

/** A constant of ASCII text as its bytes (a format's framing, a JSON key). */
export const ascii = (s: string) => Buffer.from(s, "latin1");

/** One chunk's output, grown when something written as text needs more room than planned. */
export class Out {
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
  /** A constant's bytes (`ascii`) as they are. */
  put(bytes: Buffer) {
    this.bytes(bytes, 0, bytes.length);
  }
  /** input[a, b) as it is. */
  bytes(input: Buffer, a: number, b: number) {
    const out = this.buf;
    let p = this.p;
    for (let i = a; i < b; i++) out[p++] = input[i]!;
    this.p = p;
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

/** Whether the field input[a, b) is COPY's NULL (in a row whose only backslashes are NULLs). */
export const isNull = (input: Buffer, a: number, b: number) => b - a === 2 && input[a] === 92;

/**
 * COPY's text-format chunks as one output chunk each: `row` writes a row text[start, end) whose
 * only backslashes are NULLs (`out` has room for twice the row and `perRow` bytes), `line` the
 * others (with `strings`, every row), from their fields with the escapes undone. Memory holds a
 * chunk and the row cut at its end.
 */
export async function* copyRows<O extends Out>(
  chunks: AsyncIterable<Uint8Array>,
  newOut: (size: number) => O,
  perRow: number,
  row: (out: O, input: Buffer, text: string, start: number, end: number) => void,
  line: (fields: Field[]) => string,
  strings = false,
): AsyncGenerator<Uint8Array> {
  let rest: Buffer | null = null;
  const fields: Field[] = [];
  for await (const chunk of chunks) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const input: Buffer = rest ? Buffer.concat([rest, bytes]) : bytes;
    // searched as text (indexOf), copied as bytes: one byte a character, the same offsets
    const text = input.toString("latin1");
    const out = newOut(input.length * 2 + 1024);
    let start = 0;
    let backslash = text.indexOf("\\");
    for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", start)) {
      if (backslash >= 0 && backslash < start) backslash = text.indexOf("\\", start);
      if (
        strings ||
        (backslash >= 0 && backslash < end && !onlyNulls(text, backslash, start, end))
      ) {
        rowFields(text, start, end, false, fields);
        out.text(line(fields));
      } else {
        out.room(2 * (end - start) + perRow);
        row(out, input, text, start, end);
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
 * field `\N` (an unanswered question, a response without a language).
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
export function nextTab(text: string, at: number, end: number): number {
  const tab = text.indexOf("\t", at);
  return tab < 0 || tab > end ? end : tab;
}
