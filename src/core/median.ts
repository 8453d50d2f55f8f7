/**
 * The median of values given as a histogram (each distinct value with how many times it occurs),
 * as Postgres' `percentile_cont(0.5)` finds it over the values themselves: the middle value of an
 * odd count, the mean of the two middle ones of an even count. Null for no values.
 */
export function histogramMedian(bins: readonly { value: number; n: number }[]): number | null {
  const sorted = bins.filter((b) => b.n > 0).sort((a, b) => a.value - b.value);
  const total = sorted.reduce((sum, b) => sum + b.n, 0);
  if (total === 0) return null;
  // the 0-based ranks of the middle value(s)
  const low = Math.floor((total - 1) / 2);
  const high = Math.ceil((total - 1) / 2);
  let seen = 0;
  let lowValue: number | null = null;
  for (const b of sorted) {
    seen += b.n;
    if (lowValue === null && seen > low) lowValue = b.value;
    if (seen > high) return (lowValue! + b.value) / 2;
  }
  return lowValue;
}
