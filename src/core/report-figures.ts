// The numbers each chart of the HTML report draws, worked out from a field's tally. Pure, so the
// report page, the email digest and the tests read the same figures.
import type { Field } from "./field-schema.ts";
import { optionValue } from "./options.ts";
import { numberStats, round, type Tally } from "./report-summary.ts";

export interface Bar {
  label: string;
  count: number;
  /** count / answered, in [0, 1]. */
  share: number;
}

export interface Nps {
  score: number;
  promoters: number;
  passives: number;
  detractors: number;
}

export type Figures =
  | { kind: "empty" }
  | { kind: "choices"; bars: Bar[] }
  | { kind: "numbers"; mean: number; median: number; bins: Bar[]; nps: Nps | null }
  | { kind: "matrix"; rows: string[]; columns: string[]; cells: number[][] }
  | { kind: "ranking"; ranks: { label: string; average: number }[] }
  | { kind: "text"; recent: string[]; with: Record<string, unknown>[] };

const share = (n: number, of: number) => (of === 0 ? 0 : n / of);
const MAX_BINS = 12;

/** Whole-number values from lo to hi, when there are few enough to draw one bar each. */
function span(lo: number, hi: number): number[] | null {
  if (!Number.isInteger(lo) || !Number.isInteger(hi) || hi - lo + 1 > MAX_BINS || hi < lo)
    return null;
  return Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
}

/** One bar per possible value where the field has few; else equal-width ranges. */
function histogram(field: Field, sorted: [number, number][], total: number): Bar[] {
  const lo = sorted[0]![0];
  const hi = sorted[sorted.length - 1]![0];
  const values =
    field.type === "nps"
      ? span(0, 10)
      : field.type === "rating"
        ? span(1, field.max)
        : field.type === "scale"
          ? span(Math.min(field.min, lo), Math.max(field.max, hi))
          : span(lo, hi);
  if (values) {
    const counts = new Map(sorted);
    return values.map((v) => {
      const count = counts.get(v) ?? 0;
      return { label: String(v), count, share: share(count, total) };
    });
  }
  const width = (hi - lo) / MAX_BINS || 1;
  const bins = Array.from({ length: MAX_BINS }, (_, i) => ({ from: lo + i * width, count: 0 }));
  for (const [v, c] of sorted)
    bins[Math.min(MAX_BINS - 1, Math.floor((v - lo) / width))]!.count += c;
  return bins.map((b) => ({
    label: `${round(b.from)}–${round(b.from + width)}`,
    count: b.count,
    share: share(b.count, total),
  }));
}

function npsSplit(sorted: [number, number][], total: number): Nps {
  const count = (lo: number, hi: number) =>
    sorted.filter(([v]) => v >= lo && v <= hi).reduce((n, [, c]) => n + c, 0);
  const promoters = count(9, 10);
  const detractors = count(0, 6);
  return {
    score: total === 0 ? 0 : Math.round(((promoters - detractors) / total) * 100),
    promoters,
    passives: total - promoters - detractors,
    detractors,
  };
}

export function fieldFigures(field: Field, tally: Tally): Figures {
  if (tally.answered === 0) return { kind: "empty" };
  if (field.type === "ranking") {
    const ranks = field.options
      .map(optionValue)
      .map((o) => ({ label: o, average: round((tally.ranks.get(o) ?? 0) / tally.answered) }))
      .sort((a, b) => a.average - b.average);
    return { kind: "ranking", ranks };
  }
  if (field.type === "matrix") {
    return {
      kind: "matrix",
      rows: field.rows.map((r) => r.label),
      columns: [...field.columns],
      cells: field.rows.map((r) => field.columns.map((c) => tally.matrix.get(r.id)?.get(c) ?? 0)),
    };
  }
  if ("options" in field || field.type === "yes_no") {
    const options = field.type === "yes_no" ? ["yes", "no"] : field.options.map(optionValue);
    const bars = options.map((o) => {
      const count = tally.counts.get(o) ?? 0;
      return { label: o, count, share: share(count, tally.answered) };
    });
    return { kind: "choices", bars };
  }
  if (tally.numbers.size > 0) {
    const s = numberStats(tally.numbers);
    return {
      kind: "numbers",
      mean: s.mean,
      median: s.median,
      bins: histogram(field, s.sorted, s.total),
      nps: field.type === "nps" ? npsSplit(s.sorted, s.total) : null,
    };
  }
  return { kind: "text", recent: tally.recent, with: tally.recentWith };
}
