/**
 * A small, safe Markdown renderer for form bodies: everything is escaped first, then only
 * paragraphs, headings, lists, emphasis, code and http(s)/mailto links are produced. No raw HTML
 * from an author ever reaches the page.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function inline(text: string): string {
  return (
    escapeHtml(text)
      .replace(/`([^`]+)`/g, "<code>$1</code>")
      .replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>")
      .replace(/(^|[^*])\*([^*]+)\*/g, "$1<em>$2</em>")
      // a link's text and address hold no `[`: each try stops at the next one, so a run of
      // brackets is linear (`[` × 100,000 in a body held the event loop 8 s a page view)
      .replace(
        /\[([^[\]]+)\]\(((?:https?:\/\/|mailto:)[^\s)[]+)\)/g,
        '<a href="$2" rel="noopener nofollow" target="_blank">$1</a>',
      )
  );
}

export function renderMarkdown(source: string | undefined): string {
  if (!source) return "";
  const out: string[] = [];
  for (const block of source.trim().split(/\n\s*\n/)) {
    const lines = block.split("\n");
    const heading = /^(#{1,4})\s+(.*)$/.exec(lines[0]!);
    if (heading && lines.length === 1) {
      const level = Math.min(heading[1]!.length + 1, 4);
      out.push(`<h${level}>${inline(heading[2]!)}</h${level}>`);
    } else if (lines.every((l) => /^\s*[-*]\s+/.test(l))) {
      out.push(
        `<ul>${lines.map((l) => `<li>${inline(l.replace(/^\s*[-*]\s+/, ""))}</li>`).join("")}</ul>`,
      );
    } else if (lines.every((l) => /^\s*\d+[.)]\s+/.test(l))) {
      out.push(
        `<ol>${lines.map((l) => `<li>${inline(l.replace(/^\s*\d+[.)]\s+/, ""))}</li>`).join("")}</ol>`,
      );
    } else {
      out.push(`<p>${lines.map(inline).join("<br>")}</p>`);
    }
  }
  return out.join("\n");
}
