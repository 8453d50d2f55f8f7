import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { histogramMedian } from "./median.ts";

/** percentile_cont(0.5) over the values themselves. */
function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const s = [...values].sort((a, b) => a - b);
  const at = (s.length - 1) / 2;
  return (s[Math.floor(at)]! + s[Math.ceil(at)]!) / 2;
}

const histogram = (values: number[]) => {
  const bins = new Map<number, number>();
  for (const v of values) bins.set(v, (bins.get(v) ?? 0) + 1);
  return [...bins].map(([value, n]) => ({ value, n }));
};

describe("histogramMedian", () => {
  it("is null without values, the value of one, the mean of the middle two", () => {
    expect(histogramMedian([])).toBeNull();
    expect(histogramMedian([{ value: 7, n: 0 }])).toBeNull();
    expect(histogramMedian([{ value: 42, n: 1 }])).toBe(42);
    expect(
      histogramMedian([
        { value: 10, n: 1 },
        { value: 2, n: 1 },
      ]),
    ).toBe(6);
    expect(
      histogramMedian([
        { value: 5, n: 3 },
        { value: 100, n: 2 },
      ]),
    ).toBe(5);
    expect(
      histogramMedian([
        { value: 5, n: 2 },
        { value: 100, n: 2 },
      ]),
    ).toBe(52.5);
  });

  it("equals the median of the values it counts, in any order", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 50 }), { maxLength: 60 }), (values) => {
        const bins = histogram(values).reverse();
        expect(histogramMedian(bins)).toBe(median(values));
      }),
    );
  });
});
