// The plain-text reading of the small Markdown subset `src/lib/markdown.ts` renders (SPEC §25):
// an email's text part says what its HTML shows, without the syntax — no `**`, no `#`, links as
// "text (url)".

const inline = (text: string): string =>
  text
    .replace(/`([^`]+)`/g, "$1")
    .replace(/\*\*([^*]+)\*\*/g, "$1")
    .replace(/(^|[^*])\*([^*]+)\*/g, "$1$2")
    // as markdown.ts: no `[` inside a link, so a run of brackets is linear
    .replace(/\[([^[\]]+)\]\(((?:https?:\/\/|mailto:)[^\s)[]+)\)/g, "$1 ($2)");

export function markdownText(source: string | undefined): string {
  if (!source) return "";
  const out: string[] = [];
  for (const block of source.trim().split(/\n\s*\n/)) {
    const lines = block.split("\n");
    const heading = /^(#{1,4})\s+(.*)$/.exec(lines[0]!);
    if (heading && lines.length === 1) out.push(inline(heading[2]!));
    else if (lines.every((l) => /^\s*[-*]\s+/.test(l)))
      out.push(lines.map((l) => `• ${inline(l.replace(/^\s*[-*]\s+/, ""))}`).join("\n"));
    else out.push(lines.map(inline).join("\n"));
  }
  return out.join("\n\n");
}
