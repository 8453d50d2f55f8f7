/**
 * Escapes text for Markdown: only the characters that would act as syntax where they stand.
 * In a table cell, pipes and line breaks too.
 */
export function escapeMarkdown(text: string): string {
  return (
    text
      .replace(/[\\`*[\]<>|]/g, (c) => `\\${c}`)
      // an underscore inside a word is plain text in GFM; at a word's edge it could start emphasis
      .replace(/_/g, (c, at: number, all: string) =>
        /\w/.test(all[at - 1] ?? "") && /\w/.test(all[at + 1] ?? "") ? c : `\\${c}`,
      )
      // a block marker at a line's start: `\#`, `\-`, and `1\.` (a backslash escapes only punctuation).
      // The indent stops at a line break: `\s*` crossed them, so from every one of 300,000 line
      // breaks in an answer it scanned to the end (an export or report of it held the loop 80 s)
      .replace(
        /^([^\S\n\r\u2028\u2029]*)([#>+-])(\s)/gm,
        (_m, a: string, b: string, c: string) => `${a}\\${b}${c}`,
      )
      .replace(
        /^([^\S\n\r\u2028\u2029]*\d+)([.)])(\s)/gm,
        (_m, a: string, b: string, c: string) => `${a}\\${b}${c}`,
      )
  );
}

/**
 * A table cell: line breaks as `<br>`, and control characters (other than a tab) shown as
 * U+FFFD — they mean nothing in a table.
 */
export function escapeCell(text: string): string {
  return (
    escapeMarkdown(text)
      .replace(/\r\n|\r|\n/g, "<br>")
      // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it replaces
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "\ufffd")
  );
}

/** A GFM table with leading and trailing pipes. */
export function markdownTable(
  headers: readonly string[],
  rows: readonly (readonly string[])[],
): string {
  const line = (cells: readonly string[]) => `| ${cells.map(escapeCell).join(" | ")} |`;
  return [line(headers), `| ${headers.map(() => "---").join(" | ")} |`, ...rows.map(line)].join(
    "\n",
  );
}
