import { escapeXml } from "./svg.ts";

/** The shade's colour (#1e3a8a) and the card it is laid on (#fff). */
const BASE = [30, 58, 138] as const;
const CARD = [255, 255, 255] as const;

/** `alpha` of the base over the card, as the opaque colour it shows (`#rrggbb`). */
export function blend(alpha: number): string {
  const channel = (i: 0 | 1 | 2) => Math.round(CARD[i] + (BASE[i] - CARD[i]) * alpha);
  return `#${([0, 1, 2] as const).map((i) => channel(i).toString(16).padStart(2, "0")).join("")}`;
}

/**
 * A matrix as a table whose cells are shaded by their count: the table is its own text
 * equivalent. Dark cells switch to white text so every cell keeps a 4.5:1 contrast. The shade
 * is written as the opaque colour it blends to on the card: a checker (pa11y/HTMLCS) reads a
 * translucent background as no background and reports contrast that is not there.
 */
export function heatTable(
  caption: string,
  /** The heading of the row labels' column ("Row"). */
  rowHead: string,
  rows: readonly string[],
  columns: readonly string[],
  cells: readonly (readonly number[])[],
): string {
  const max = Math.max(1, ...cells.flat());
  const head = `<tr><th scope="col">${escapeXml(rowHead)}</th>${columns.map((c) => `<th scope="col">${escapeXml(c)}</th>`).join("")}</tr>`;
  const body = rows
    .map((r, i) => {
      const tds = columns
        .map((_, j) => {
          const n = cells[i]?.[j] ?? 0;
          const alpha = n === 0 ? 0 : 0.08 + 0.82 * (n / max);
          // base #1e3a8a: below 0.65 black text reads, from 0.71 white does; nothing in between
          const a = alpha >= 0.65 && alpha < 0.71 ? 0.71 : alpha;
          const ink = a >= 0.71 ? "#fff" : "#111";
          return `<td class="heat" style="background:${blend(Number(a.toFixed(2)))};color:${ink}">${n}</td>`;
        })
        .join("");
      return `<tr><th scope="row">${escapeXml(r)}</th>${tds}</tr>`;
    })
    .join("");
  // a wide matrix scrolls sideways on a phone; the region is focusable so a keyboard can too
  return `<div class="scroll" role="region" tabindex="0" aria-label="${escapeXml(caption)}"><table class="heat-table"><caption>${escapeXml(caption)}</caption><thead>${head}</thead><tbody>${body}</tbody></table></div>`;
}
