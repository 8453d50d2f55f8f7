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

/** A bar's answer as an attribute, or nothing. */
export const keyAttr = (key: string | undefined) =>
  key === undefined ? "" : ` data-key="${escapeXml(key)}"`;

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
