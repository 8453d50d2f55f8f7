// The page's meta description: what a search result or a link preview says under the title.
// The body's first paragraph as plain text, else the title; at most 160 characters.

const MAX = 160;

export function describe(title: string, body: string | undefined): string {
  const paragraph = (body ?? "")
    .split(/\n\s*\n/)
    .map((p) =>
      p
        // each try stops where the next could start (no `[` in a link, no `<` in a tag): a run
        // of brackets is linear, not a scan to the end from each one
        .replace(/!\[[^[\]]*\]\([^)[]*\)/g, "") // images
        .replace(/\[([^[\]]*)\]\([^)[]*\)/g, "$1") // links keep their text
        .replace(/<[^<>]*>/g, "")
        .replace(/^\s{0,3}(#{1,6}|>|[-*+]|\d+\.)\s+/gm, "")
        .replace(/[*_`~]+/g, "")
        .replace(/\{(?:field|hidden):[A-Za-z0-9_-]+\}/g, "")
        .replace(/\s+/g, " ")
        .trim(),
    )
    .find((p) => p.length > 0);
  const text = paragraph ?? title;
  return text.length <= MAX ? text : `${text.slice(0, MAX - 1).replace(/\s+\S*$/, "")}…`;
}
