import { describe, expect, it } from "vitest";
import { blend, heatTable } from "./heat-table.ts";

const luminance = (hex: string) => {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
};
const contrast = (a: string, b: string) => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
};
const long = (hex: string) =>
  hex.length === 4 ? `#${[...hex.slice(1)].map((c) => c + c).join("")}` : hex;

describe("heat table cells", () => {
  it("blend the shade onto the card: white at 0, the base colour at 1", () => {
    expect(blend(0)).toBe("#ffffff");
    expect(blend(1)).toBe("#1e3a8a");
    expect(blend(0.5)).toBe("#8f9dc5");
  });

  it("write every background as an opaque colour, its text at 4.5:1 or more", () => {
    // every shade a count makes on a 0–400 scale, 0.08 to 0.9 in fine steps
    const counts = Array.from({ length: 401 }, (_, i) => i);
    const html = heatTable("Per row", "Row", ["a"], counts.map(String), [counts]);
    const cells = [...html.matchAll(/<td class="heat" style="([^"]*)">(\d+)<\/td>/g)];
    expect(cells).toHaveLength(counts.length);
    expect(html).not.toMatch(/rgba|transparent|hsla|opacity/);
    for (const [, style] of cells) {
      const m = /^background:(#[0-9a-f]{6});color:(#[0-9a-f]{3,6})$/.exec(style!);
      expect(m, style).not.toBeNull();
      expect(contrast(m![1]!, long(m![2]!)), style).toBeGreaterThanOrEqual(4.5);
    }
  });
});
