import { escapeXml, percent, px, svgFrame } from "./svg.ts";

export interface Segment {
  label: string;
  count: number;
  tone: string;
}

const WIDTH = 400;

/** One bar split into parts of a whole (the NPS detractors, passives and promoters). */
export function splitBar(
  id: string,
  title: string,
  segments: readonly Segment[],
  /** A segment's legend, e.g. "Promoters 3 (60%)". */
  legendText: (s: Segment, share: number) => string = (s, share) =>
    `${s.label} ${s.count} (${percent(share)})`,
): string {
  const total = segments.reduce((n, s) => n + s.count, 0) || 1;
  let x = 0;
  const parts = segments.map((s) => {
    const w = (s.count / total) * WIDTH;
    const rect = `<rect x="${px(x)}" y="0" width="${px(w)}" height="18" class="${s.tone}"/>`;
    x += w;
    return rect;
  });
  const legend = segments
    .map(
      (s, i) =>
        `<text x="${[0, WIDTH / 2, WIDTH][i] ?? 0}" y="36" class="l" text-anchor="${["start", "middle", "end"][i] ?? "start"}">${escapeXml(legendText(s, s.count / total))}</text>`,
    )
    .join("");
  return svgFrame(id, title, WIDTH, 42, parts.join("") + legend);
}
