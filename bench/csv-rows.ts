// The CSV export's writing alone, in this process: COPY text of N rows shaped as bench/export.ts
// fills them (an id, an instant, a name — every fourth unanswered —, a score, a checkbox list),
// in chunks of the size postgres.js hands over, written by the byte writer (copy-table.ts, what
// the export runs) and by the string writer it replaced (below, with copy-lines.ts' line),
// alternately; both outputs are checked equal. Prints the best CPU time of each and the ratio.
// Usage: node --max-semi-space-size=4 bench/csv-rows.ts [1000000]
import { createHash } from "node:crypto";
import { copyWriter } from "../functions/exports/copy-lines.ts";
import { type Field, rowFields } from "../functions/exports/copy-rows.ts";
import type { ExportShape } from "../functions/exports/copy-statement.ts";

const n = Number(process.argv[2] ?? 1_000_000);
/** A name, unanswered (COPY's NULL) in every fourth response. */
const name = (g: number) => (g % 4 === 0 ? "\\N" : `Person ${g}`);
const rows: string[] = [];
for (let g = 1; g <= n; g++) {
  const day = String(10 + (g % 17)).padStart(2, "0");
  const micros = String(g % 1_000_000).padStart(6, "0");
  rows.push(
    `${crypto.randomUUID()}\t2026-11-${day} 13:46:18.${micros}\t${name(g)}\t${g % 11}\t["a", "c"]\n`,
  );
}
const all = Buffer.from(rows.join(""), "latin1");
rows.length = 0;
const CHUNK = 37_000;
async function* chunks() {
  for (let i = 0; i < all.length; i += CHUNK) yield all.subarray(i, i + CHUNK);
}
const shape = {
  formId: "",
  columns: [
    { header: "name", list: false },
    { header: "score", list: false },
    { header: "tags", list: true },
  ],
  range: { since: null, until: null },
  quiz: false,
  withTest: false,
  lang: false,
  filter: null,
} as unknown as ExportShape;

/**
 * The string writer the byte writers replaced: COPY's text-format chunks as the lines `line`
 * writes for each row, from the row's fields as strings, one output chunk per input chunk.
 */
async function* copyTextRows(
  chunks: AsyncIterable<Uint8Array>,
  line: (fields: Field[]) => string,
): AsyncGenerator<Uint8Array> {
  let rest = "";
  const fields: Field[] = [];
  for await (const chunk of chunks) {
    const text =
      rest + Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString("latin1");
    let out = "";
    let start = 0;
    // where the next backslash is: a row before it holds no escape and no NULL
    let backslash = text.indexOf("\\");
    for (let end = text.indexOf("\n"); end >= 0; end = text.indexOf("\n", start)) {
      if (backslash >= 0 && backslash < start) backslash = text.indexOf("\\", start);
      rowFields(text, start, end, backslash < 0 || backslash > end, fields);
      out += line(fields);
      start = end + 1;
    }
    rest = text.slice(start);
    if (out.length > 0) yield Buffer.from(out, "latin1");
  }
  if (rest.length > 0) throw new Error("the export's COPY ended inside a row");
}

async function run(kind: "bytes" | "strings") {
  const writer = copyWriter(shape, "csv", ["id", "submitted_at", "name", "score", "tags"]);
  const hash = createHash("sha256");
  const out =
    kind === "bytes" ? writer.rows(chunks()) : copyTextRows(chunks(), (f) => writer.line(f));
  const before = process.cpuUsage();
  for await (const part of out) hash.update(part);
  const used = process.cpuUsage(before);
  return { ms: (used.user + used.system) / 1000, digest: hash.digest("hex") };
}

const best = { bytes: Infinity, strings: Infinity };
for (let round = 0; round < 5; round++) {
  const bytes = await run("bytes");
  const strings = await run("strings");
  if (bytes.digest !== strings.digest) throw new Error("the two writers wrote different files");
  best.bytes = Math.min(best.bytes, bytes.ms);
  best.strings = Math.min(best.strings, strings.ms);
}
console.log(
  `${n.toLocaleString("en-US")} rows (${(all.length / 1e6).toFixed(1)} MB of COPY text): byte writer ${best.bytes.toFixed(0)} ms of CPU · string writer ${best.strings.toFixed(0)} ms · ${(best.bytes / best.strings).toFixed(2)}x`,
);
