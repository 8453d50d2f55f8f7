import type { FunnelStep } from "./dropoff.ts";
import type { Field } from "./field-schema.ts";
import type { LogicSummary } from "./logic/summary.ts";
import type { ReportPeriod } from "./report-locale.ts";
import type { Tally } from "./report-summary.ts";
import type { WhereCondition } from "./where/where.ts";

/** Everything a report shows, gathered once; the Markdown and HTML renderers only format it. */
export interface ReportData {
  title: string;
  slug: string;
  /** The form's `locale`: the language the report is written in (SPEC §21). */
  locale: string;
  /** The period covered, named in the report's language ("the last 7 days", "all time" …). */
  period: ReportPeriod;
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
  /**
   * A form in several languages (SPEC §20): its responses in the period per language the
   * respondent read, the form's own first; absent for a form in one language.
   */
  languages?: { lang: string; count: number }[];
  /** Fields of earlier versions no live field carries on, with their answers (SPEC §16). */
  earlier?: { field: Field; answered: number }[];
  /** A segment (SPEC §18): the conditions its responses meet; its heading says so. */
  segment?: WhereCondition[];
  /** Responses per ending reached, and the variables' figures (SPEC §24). */
  logic?: LogicSummary;
}
