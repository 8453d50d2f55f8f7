import { clip, escapeXml, keyAttr, px, svgFrame } from "./svg.ts";

export interface Column {
  label: string;
  count: number;
  /** A class for the bar (e.g. NPS groups); "bar" when absent. */
  tone?: string;
  /** The answer the column counts, as `data-key` (see BarRow.key). */
  key?: string;
}

const WIDTH = 400;
const HEIGHT = 150;
const TOP = 16;
const AXIS = 20;

/**
 * Vertical bars over a category axis: histograms of numbers, ratings, scales and NPS, and the
 * trend of responses per day. `every` labels every n-th column (a 30-day trend labels a few).
 */
export function columnChart(
  id: string,
  title: string,
  columns: readonly Column[],
  /** `peak`: the label of the tallest count when counts are not written ("max {n}"). */
  options: { every?: number; counts?: boolean; peak?: string } = {},
): string {
  const max = Math.max(1, ...columns.map((c) => c.count));
  const slot = WIDTH / Math.max(1, columns.length);
  const gap = Math.min(6, slot * 0.2);
  const plot = HEIGHT - TOP - AXIS;
  const every = options.every ?? 1;
  const body = columns
    .map((c, i) => {
      const h = (c.count / max) * plot;
      const x = i * slot + gap / 2;
      const mid = px(i * slot + slot / 2);
      // counted from the end, so the newest column is always labelled
      const anchor = mid < 20 ? "start" : mid > WIDTH - 20 ? "end" : "middle";
      const label =
        (columns.length - 1 - i) % every === 0
          ? `<text x="${anchor === "start" ? 0 : anchor === "end" ? WIDTH : mid}" y="${HEIGHT - 5}" class="a" text-anchor="${anchor}">${escapeXml(clip(c.label, 12))}</text>`
          : "";
      const count =
        options.counts !== false && c.count > 0
          ? `<text x="${mid}" y="${px(TOP + plot - h - 4)}" class="v" text-anchor="middle">${c.count}</text>`
          : "";
      return `<rect x="${px(x)}" y="${px(TOP + plot - h)}" width="${px(slot - gap)}" height="${px(h)}" class="${c.tone ?? "bar"}"${keyAttr(c.key)}/>${count}${label}`;
    })
    .join("");
  const axis = `<line x1="0" y1="${TOP + plot + 0.5}" x2="${WIDTH}" y2="${TOP + plot + 0.5}" class="axis"/>`;
  const peak =
    options.counts === false
      ? `<text x="0" y="10" class="a">${escapeXml((options.peak ?? "max {n}").replace("{n}", String(max)))}</text>`
      : "";
  return svgFrame(id, title, WIDTH, HEIGHT, `${peak}${axis}${body}`);
}
