// Shared bits of the report's charts: escaping and the accessible SVG frame.

/** Escapes text for HTML and SVG alike (element content and quoted attributes). */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A label cut to fit a chart line; the table beside the chart carries the whole text. */
export function clip(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** Rounds a coordinate so the markup stays short. */
export const px = (n: number) => Math.round(n * 10) / 10;

export const percent = (share: number) => `${Math.round(share * 100)}%`;

/**
 * An SVG with role="img" named by its `<title>`: screen readers announce the title, and the
 * table the report prints beside it holds every number.
 */
export function svgFrame(
  id: string,
  title: string,
  width: number,
  height: number,
  body: string,
): string {
  return `<svg class="chart" role="img" aria-labelledby="${id}" viewBox="0 0 ${width} ${px(height)}" width="${width}" height="${px(height)}" xmlns="http://www.w3.org/2000/svg"><title id="${id}">${escapeXml(title)}</title>${body}</svg>`;
}

/** The chart rules of the report's stylesheet, for an SVG shown on its own (an MCP image). */
const CHART_CSS =
  "text{font:13px system-ui,sans-serif;fill:#1f2937}.v{font-weight:600}.a{font-size:11px;fill:#4b5563}.bar{fill:#1d4ed8}.track{fill:#e5e7eb}.reach{fill:#93c5fd}.axis{stroke:#9ca3af}.det{fill:#b91c1c}.pas{fill:#a16207}.pro{fill:#15803d}";

/** Every chart of a report document as a standalone SVG file's text, styles inside it. */
export function standaloneCharts(html: string): string[] {
  return (html.match(/<svg\b[\s\S]*?<\/svg>/g) ?? []).map((svg) =>
    svg.replace(
      /^<svg\b([^>]*)>/,
      `<svg$1><style>${CHART_CSS}</style><rect width="100%" height="100%" fill="#fff"/>`,
    ),
  );
}
