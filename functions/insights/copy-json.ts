import { type ExportShape, exportFrom, exportWhere, ISO_INSTANT } from "./copy-csv.ts";

/**
 * The JSON export written by Postgres (issue 28): each response is one line of JSON text built
 * in the statement — the record `record()` makes in services/responses.ts, in its key order —
 * followed by a comma, and COPY streams the lines. COPY's text format would double every
 * backslash of the JSON's escapes, so the lines go out in CSV format with a delimiter and a
 * quote character that JSON text never holds raw (it writes control characters as `\u0001`): no
 * line is ever quoted, and each arrives exactly as built. `jsonArray` below frames them.
 * Assembled from checked values only, as the CSV statement is.
 */
export function copyJsonStatement(shape: ExportShape): string {
  const { quiz, withTest, filter } = shape;
  const parts = [
    `'{"id":"' || id || '","submitted_at":"' || ${ISO_INSTANT}`,
    `'","version":' || coalesce(version, 1)`,
    `case when lang is null then '' else ',"lang":' || to_json(lang)::text end`,
    `',"payload":' || payload::text`,
    ...(quiz ? [`',"score":' || coalesce(score::text, 'null')`] : []),
    ...(withTest ? [`case when test then ',"test":true' else '' end`] : []),
    `'},'`,
  ];
  return `copy (${exportFrom(parts.join(" || "), filter)} where ${exportWhere(shape)}
    order by submitted_at desc, id desc) to stdout with (format csv, delimiter e'\\x01', quote e'\\x02')`;
}

/**
 * The lines of `copyJsonStatement` as one JSON array, `[\n{…},\n{…}\n]\n` as the batched path
 * writes it: the last line's comma is held back — each chunk is passed on one chunk late (a
 * chunk shorter than `,\n` joins the one held), and the last loses its final two bytes — so
 * memory holds one chunk at most.
 */
export async function* jsonArray(
  lines: AsyncIterable<Uint8Array>,
): AsyncGenerator<Uint8Array | string> {
  let held: Uint8Array | null = null;
  for await (const chunk of lines) {
    if (chunk.byteLength === 0) continue;
    if (held === null) {
      yield "[\n";
      held = chunk;
    } else if (chunk.byteLength < 2) {
      const joined: Uint8Array = new Uint8Array(held.byteLength + chunk.byteLength);
      joined.set(held);
      joined.set(chunk, held.byteLength);
      held = joined;
    } else {
      yield held;
      held = chunk;
    }
  }
  if (held === null) {
    yield "[]\n";
    return;
  }
  yield held.subarray(0, held.byteLength - 2);
  yield "\n]\n";
}
