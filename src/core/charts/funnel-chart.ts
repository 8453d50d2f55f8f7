import { clip, escapeXml, px, svgFrame } from "./svg.ts";

export interface FunnelRow {
  label: string;
  reached: number;
  answered: number;
}

const WIDTH = 400;
const ROW = 34;

/** Drop-off: per field, how many reached it (light bar) and answered it (dark bar over it). */
export function funnelChart(id: string, title: string, rows: readonly FunnelRow[]): string {
  const max = Math.max(1, ...rows.map((r) => r.reached));
  const body = rows
    .map((r, i) => {
      const y = i * ROW;
      return `<text x="0" y="${y + 12}" class="l">${escapeXml(clip(r.label, 40))}</text><text x="${WIDTH}" y="${y + 12}" class="v" text-anchor="end">${r.reached} → ${r.answered}</text><rect x="0" y="${y + 17}" width="${px((r.reached / max) * WIDTH)}" height="11" rx="2" class="reach"/><rect x="0" y="${y + 17}" width="${px((Math.min(r.answered, r.reached) / max) * WIDTH)}" height="11" rx="2" class="bar"/>`;
    })
    .join("");
  return svgFrame(id, title, WIDTH, rows.length * ROW, body);
}
