// The JSON export on Postgres, written byte by byte (copy-bytes.ts): each record is the row's
// fields copied around their keys — the payload's jsonb text as COPY gives it — in the order and
// framing of the string writer (copy-lines.ts, `jsonLines`), which writes the rows with an
// escape and shares `first` with this one.
import type { Buffer } from "node:buffer";
import { ascii, copyRows, isNull, nextTab, Out } from "./copy-bytes.ts";
import { type Field, jsonString } from "./copy-rows.ts";
import type { ExportShape } from "./copy-statement.ts";

const OPEN_FIRST = ascii('[\n{"id":"');
const OPEN = ascii(',\n{"id":"');
const AT = ascii('","submitted_at":"');
const VERSION = ascii('","version":');
const LANG = ascii(',"lang":"');
const PAYLOAD = ascii(',"payload":');
const SCORE = ascii(',"score":');
const NULL = ascii("null");
const TEST = ascii(',"test":true');

/** The field after the tab at `tab`, jsonb text or NULL, as a JSON value after `key`; its end. */
function jsonValue(out: Out, input: Buffer, text: string, tab: number, end: number, key: Buffer) {
  out.put(key);
  const at = tab + 1;
  const next = nextTab(text, at, end);
  if (isNull(input, at, next)) out.put(NULL);
  else out.bytes(input, at, next);
  return next;
}

/** Whether input[a, b) is written in a JSON string as it is: printable ASCII, no quote. */
function plainString(input: Buffer, a: number, b: number): boolean {
  for (let i = a; i < b; i++) {
    const c = input[i]!;
    if (c < 0x20 || c > 0x7e || c === 34 || c === 92) return false;
  }
  return true;
}

/**
 * COPY's text-format chunks of `copyStatement`'s record fields (id, instant, version, language,
 * payload, then the score and the test flag when asked) as the export's JSON records; a row
 * with an escape is written by `line`.
 */
export function copyJsonRows(
  chunks: AsyncIterable<Uint8Array>,
  { quiz, withTest }: Pick<ExportShape, "quiz" | "withTest">,
  state: { first: boolean },
  line: (fields: Field[]) => string,
  strings = false,
): AsyncGenerator<Uint8Array> {
  return copyRows(chunks, (size) => new Out(size), 160, row, line, strings);
  function row(out: Out, input: Buffer, text: string, start: number, end: number) {
    out.put(state.first ? OPEN_FIRST : OPEN);
    state.first = false;
    let tab = nextTab(text, start, end);
    out.bytes(input, start, tab);
    out.put(AT);
    let at = tab + 1;
    tab = nextTab(text, at, end);
    out.instant(input, text, at, tab);
    out.put(VERSION);
    at = tab + 1;
    tab = nextTab(text, at, end);
    out.bytes(input, at, tab);
    // the language, when there is one (none recorded: no key)
    at = tab + 1;
    tab = nextTab(text, at, end);
    if (tab > at && !isNull(input, at, tab)) {
      if (plainString(input, at, tab)) {
        out.put(LANG);
        out.bytes(input, at, tab);
        out.buf[out.p++] = 34;
      } else out.text(`,"lang":${jsonString(text.slice(at, tab))}`);
    }
    tab = jsonValue(out, input, text, tab, end, PAYLOAD);
    if (quiz) tab = jsonValue(out, input, text, tab, end, SCORE);
    if (withTest) {
      at = tab + 1;
      tab = nextTab(text, at, end);
      if (tab - at === 1 && input[at] === 116) out.put(TEST);
    }
    out.buf[out.p++] = 125; // }
  }
}
