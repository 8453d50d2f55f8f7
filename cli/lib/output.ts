/** Data goes to stdout, messages to stderr, so output pipes cleanly. */
export const out = (text: string) => process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
export const say = (text: string) => process.stderr.write(`${text}\n`);
export const json = (value: unknown) => out(JSON.stringify(value, null, 2));

/** A plain aligned table. */
export function table(headers: string[], rows: (string | number)[][]): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
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
