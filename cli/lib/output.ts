// Data goes to stdout, messages to stderr, so output pipes cleanly. Whatever the server answers
// (answers, subjects, error messages) is data, never terminal commands (SPEC §23): its control
// characters are shown escaped, `\x1b` for ESC, by `printable` on every way out.

// C0 controls but line feed and tab, DEL, and the C1 controls (CSI, OSC… as single code points)
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it finds
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;
// what JSON.stringify leaves as it is: DEL and the C1 controls
const JSON_CONTROL = /[\x7f-\x9f]/g;

const hex = (c: string) => c.charCodeAt(0).toString(16).padStart(2, "0");

/** Text with its control characters (but `\n` and `\t`) shown as `\xHH`. */
export const printable = (text: string) => text.replace(CONTROL, (c) => `\\x${hex(c)}`);

/** JSON text with DEL and C1 controls written as `\u00HH` escapes: the same value, printable. */
const printableJson = (text: string) => text.replace(JSON_CONTROL, (c) => `\\u00${hex(c)}`);

export const out = (text: string) =>
  process.stdout.write(printable(text.endsWith("\n") ? text : `${text}\n`));
/** Our own styled text (colours), its server data made printable where it was put in. */
export const styled = (text: string) => process.stdout.write(`${text}\n`);
export const say = (text: string) => process.stderr.write(printable(`${text}\n`));
export const json = (value: unknown) => out(printableJson(JSON.stringify(value, null, 2)));

/** A plain aligned table (its cells made printable first, so the columns line up). */
export function table(headers: string[], rows: (string | number)[][]): string {
  const cells = [headers, ...rows.map((r) => r.map((c) => printable(String(c))))];
  const widths = headers.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? "").length)));
  return cells
    .map((r) =>
      r
        .map((c, i) => (c ?? "").padEnd(widths[i]!))
        .join("  ")
        .trimEnd(),
    )
    .join("\n");
}

/**
 * A stream of the server's bytes (an export) as it should reach `sink`: unchanged into a file or
 * a pipe, and printable on a terminal, where a CSV's `\r\n` line ends stay line ends.
 */
export async function* toSink(
  chunks: AsyncIterable<Uint8Array>,
  terminal: boolean,
): AsyncGenerator<Uint8Array | string> {
  if (!terminal) {
    yield* chunks;
    return;
  }
  const decoder = new TextDecoder();
  let held = "";
  const text = (s: string) => printable(s.replace(/\r\n/g, "\n"));
  for await (const chunk of chunks) {
    const s = held + decoder.decode(chunk, { stream: true });
    // a `\r` at the end may be the first half of a `\r\n`
    held = s.endsWith("\r") ? "\r" : "";
    yield text(held ? s.slice(0, -1) : s);
  }
  yield text(held + decoder.decode());
}
