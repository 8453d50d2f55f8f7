import { clip, escapeXml, keyAttr, px, svgFrame } from "./svg.ts";

export interface BarRow {
  label: string;
  /** Bar length as a share of the full width, in [0, 1]. */
  value: number;
  /** The figure written beside the bar, e.g. "12 · 40%". */
  text: string;
  /** The answer the bar counts, as `data-key` (the MCP report app lists its responses on a click). */
  key?: string;
}

const WIDTH = 400;
const ROW = 34;

/** Horizontal bars, each under its label with its figure on the right (choices, rankings). */
export function barChart(id: string, title: string, rows: readonly BarRow[]): string {
  const body = rows
    .map((r, i) => {
      const y = i * ROW;
      const w = Math.max(0, Math.min(1, r.value)) * WIDTH;
      return `<text x="0" y="${y + 12}" class="l">${escapeXml(clip(r.label, 44))}</text><text x="${WIDTH}" y="${y + 12}" class="v" text-anchor="end">${escapeXml(r.text)}</text><rect x="0" y="${y + 17}" width="${WIDTH}" height="11" rx="2" class="track"/><rect x="0" y="${y + 17}" width="${px(w)}" height="11" rx="2" class="bar"${keyAttr(r.key)}/>`;
    })
    .join("");
  return svgFrame(id, title, WIDTH, rows.length * ROW, body);
}
