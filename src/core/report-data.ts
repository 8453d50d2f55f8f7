import type { FunnelStep } from "./dropoff.ts";
import type { Field } from "./field-schema.ts";
import type { Tally } from "./report-summary.ts";

/** Everything a report shows, gathered once; the Markdown and HTML renderers only format it. */
export interface ReportData {
  title: string;
  slug: string;
  /** "the last 7 days", "all time", "2026-11-23" … */
  periodLabel: string;
  generatedAt: string;
  /** Responses in the period. */
  responses: number;
  totals: { responses: number; views: number; starts: number; completion_rate: number };
  /** Responses of the last 7 days against the 7 before. */
  change: { current: number; previous: number; delta: number; percent: number | null };
  /** Responses per UTC day, oldest first, the last 30 days. */
  trend: { date: string; count: number }[];
  /** The answerable fields, in form order. */
  fields: Field[];
  tallies: Map<string, Tally>;
  /** Quiz score buckets (0, 10, … 90) and their counts; null on a form that is not a quiz. */
  quiz: Map<number, number> | null;
  dropoff: FunnelStep[];
  medianSeconds: number | null;
  /** Fields of earlier versions no live field carries on, with their answers (SPEC §16). */
  earlier?: { field: Field; answered: number }[];
}

/** "1 response", "2 responses". */
export const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/** 95 → "1 min 35 s". */
export function duration(seconds: number | null): string {
  if (seconds === null) return "no timings yet";
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min${s % 60 ? ` ${s % 60} s` : ""}`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}
