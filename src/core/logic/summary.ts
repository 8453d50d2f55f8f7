// What the logic recorded, summed up for stats and reports (SPEC §24): how many responses
// reached each ending, and each variable's figures (numbers: count, min, mean, max; other
// values: the most frequent). Gathered in SQL (functions/reports/logic-summary.ts), rendered here.
import { escapeMarkdown, markdownTable } from "../markdown.ts";
import type { ReportLocale } from "../report-locale.ts";

export interface VariableSummary {
  id: string;
  label: string;
  /** Responses with a value. */
  count: number;
  /** For numbers. */
  min?: number | null;
  mean?: number | null;
  max?: number | null;
  /** For other values: the most frequent, with their counts. */
  values?: { value: string; count: number }[];
}

export interface LogicSummary {
  endings: { id: string; count: number }[];
  variables: VariableSummary[];
}

const figures = (v: VariableSummary, l: ReportLocale) =>
  v.values
    ? v.values.map((x) => `${x.value}: ${l.count(x.count)}`).join(", ")
    : [v.min, v.mean, v.max]
        .map((n) => (n === null || n === undefined ? "–" : l.num(n)))
        .join(" / ");

/** The report's section in Markdown (its words in the report's language). */
export function logicSection(s: LogicSummary, l: ReportLocale): string[] {
  const { t } = l;
  const out: string[] = [];
  if (s.endings.length > 0)
    out.push(
      `## ${t.endings_heading}`,
      "",
      markdownTable(
        [t.ending, t.responses],
        s.endings.map((e) => [e.id, l.count(e.count)]),
      ),
      "",
    );
  if (s.variables.length > 0)
    out.push(
      `## ${t.variables_heading}`,
      "",
      markdownTable(
        [t.variable, t.responses, t.variable_figures],
        s.variables.map((v) => [
          escapeMarkdown(v.label),
          l.count(v.count),
          escapeMarkdown(figures(v, l)),
        ]),
      ),
      "",
    );
  return out;
}

/** The rows of the HTML report's table: label, count, figures (escaped by the caller). */
export const logicRows = (s: LogicSummary, l: ReportLocale) =>
  s.variables.map((v) => [v.label, l.count(v.count), figures(v, l)]);
