// The exports on Postgres (issue 28): COPY streams each row's raw fields in its text format, as
// cheaply as a bare COPY, and the server writes them as the format's lines while Postgres reads
// on — the two run on two cores. The lines are written byte by byte (copy-table.ts for CSV and
// Markdown, copy-json.ts), with this module's functions for the rows and cells they do not write
// themselves; bench/csv-rows.ts measures them against the string writer they replaced.
// (Building the cells in the statement made Postgres the bottleneck: 0.5 µs a row for a checkbox
// list, 0.4 µs for the ISO instant.)
//
// Fields are handled as their bytes, one byte a character (`latin1`): every delimiter, quote
// and escape the formats use is ASCII, and a UTF-8 sequence never holds an ASCII byte, so a
// character cut between two chunks needs no care and the bytes go out as they came. A cell that
// must be read as text (a list with escapes, Markdown beyond ASCII) is decoded, written the way
// the batched path writes it (src/core/csv.ts, src/core/markdown.ts), and encoded back.
import { Buffer } from "node:buffer";
import { cellText, csvCell, FORMULA_START } from "../../src/core/csv.ts";
import { escapeCell } from "../../src/core/markdown.ts";

/** A field as bytes, one a character: COPY's NULL (`\N`) as null. */
export type Field = string | null;

const ESCAPES: Record<string, string> = { b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", v: "\v" };
/** A field of COPY's text format with its backslash escapes undone. */
const unescaped = (raw: string) =>
  raw.indexOf("\\") < 0 ? raw : raw.replace(/\\(.)/gs, (_, c: string) => ESCAPES[c] ?? c);

/** Bytes, one a character, as the text they encode in UTF-8, and back. */
export const decode = (bytes: string) => Buffer.from(bytes, "latin1").toString("utf8");
export const encode = (text: string) => Buffer.from(text, "utf8").toString("latin1");
/** A JSON string of bytes, one a character (JSON.stringify escapes only below U+0080). */
export const jsonString = (t: string) => encode(JSON.stringify(decode(t)));

/** The fields of the row text[start, end) into `fields`; `plain`: the row holds no backslash. */
export function rowFields(
  text: string,
  start: number,
  end: number,
  plain: boolean,
  fields: Field[],
): void {
  fields.length = 0;
  for (let at = start; ; ) {
    let tab = text.indexOf("\t", at);
    if (tab < 0 || tab > end) tab = end;
    const raw = text.slice(at, tab);
    fields.push(plain ? raw : raw === "\\N" ? null : unescaped(raw));
    if (tab === end) return;
    at = tab + 1;
  }
}

/**
 * `submitted_at at time zone 'UTC'` as Postgres writes it (DateStyle ISO: `2026-11-26
 * 13:46:18.509001`, trailing zeros of the fraction dropped) as the API writes an instant
 * (`toISOString`: milliseconds, cut, and `Z`).
 */
export function pgInstant(t: string): string {
  if (t.length < 19 || t.charCodeAt(4) !== 45 || t.charCodeAt(10) !== 32)
    throw new Error(`the export read an instant it cannot write: ${t} (DateStyle must be ISO)`);
  if (t.length >= 23) return `${t.slice(0, 10)}T${t.slice(11, 23)}Z`;
  return `${t.slice(0, 10)}T${t.slice(11, 19)}.${t.slice(20).padEnd(3, "0")}Z`;
}

/**
 * A list answer from its jsonb text, as `cellText` writes it: the items joined with `; `. A list
 * of strings without an escape is cut out of the text: every quote is then a delimiter, so inside
 * the `["` and `"]` around it each quote must open a `", "` that becomes `; ` — any other means an
 * item that is not a string. Anything else is parsed and written by `cellText` itself.
 */
export function listCell(t: Field): string {
  if (t === null) return "";
  const last = t.length - 1;
  if (
    last >= 3 &&
    t.charCodeAt(0) === 91 && // [
    t.charCodeAt(1) === 34 && // "
    t.charCodeAt(last - 1) === 34 &&
    t.charCodeAt(last) === 93 && // ]
    t.indexOf("\\") < 0
  ) {
    const joined = joinedStrings(t, last - 1);
    if (joined !== null) return joined;
  }
  return encode(cellText(JSON.parse(decode(t))));
}

/** Whether a jsonb text is a JSON number (it starts with `-` or a digit): written as it is. */
export const jsonNumber = (t: Field): t is string => {
  const c = t === null ? -1 : t.charCodeAt(0);
  return c === 45 || (c >= 48 && c <= 57);
};

/**
 * A JSON number's jsonb text as `cellText` writes the number: jsonb writes a numeric in full,
 * JavaScript from 1e21 up and below 1e-6 with an exponent (`1e+21`, `1e-7`); as it is otherwise.
 */
export function jsNumber(t: string): string {
  if (t.length < 9) return t;
  const u = t.charCodeAt(0) === 45 ? t.slice(1) : t;
  const dot = u.indexOf(".");
  return (dot < 0 ? u.length : dot) >= 22 || u.startsWith("0.000000") ? String(Number(t)) : t;
}

/**
 * An answer of a number column from its jsonb text, as `cellText` writes it: a JSON number as its
 * digits; anything else (a text stored under a field that was a text field) parsed and written by
 * `cellText`, and then neutralised as any text is.
 */
export function numberCell(t: Field): string {
  if (t === null) return "";
  return jsonNumber(t) ? jsNumber(t) : encode(cellText(JSON.parse(decode(t))));
}

/**
 * The strings of `["a", "b"]` (its closing quote at `end`) joined with `; `, or null at a quote
 * that is not a `", "`. A loop over the quotes: `replaceAll` took 2.5 times as long (issue 28).
 */
function joinedStrings(t: string, end: number): string | null {
  let out = "";
  let at = 2;
  for (;;) {
    const q = t.indexOf('"', at);
    if (q < 0) return null;
    if (q >= end) return out + t.slice(at, end);
    if (t.charCodeAt(q + 1) !== 44 || t.charCodeAt(q + 2) !== 32 || t.charCodeAt(q + 3) !== 34)
      return null;
    out += `${t.slice(at, q)}; `;
    at = q + 4;
  }
}

/** What makes `csvCell` change a cell: a start a spreadsheet runs as a formula, a quote, comma or line break. */
const CSV_SPECIAL = /^[=+\-@\t\r]|[",\r\n]/;
/** A start of a space, line break or BOM (its first byte), which a formula's sign may follow. */
const SPACED = /^[ \n\xef]/;
/** A cell's text as `csvCell` writes it (by `csvCell` itself whenever it would change it). */
export const csvText = (t: string) =>
  SPACED.test(t) && FORMULA_START.test(decode(t))
    ? encode(csvCell(decode(t)))
    : CSV_SPECIAL.test(t)
      ? csvCell(t)
      : t;

/**
 * Whatever `escapeCell` could change: its syntax characters, control characters and line
 * breaks, a block marker at the start (`- `, `# `, `> `, `1. `, `2) `), and any byte beyond ASCII
 * (a no-break space can open a block too). A cell without any is written as it is.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const MARKDOWN_SPECIAL = /[\\`*[\]<>|_\x00-\x1f\x7f-\xff]|^ *(?:[#>+-]|\d+[.)]) /;
/** A cell's text as `escapeCell` writes it. */
export const markdownText = (t: string) =>
  MARKDOWN_SPECIAL.test(t) ? encode(escapeCell(decode(t))) : t;
