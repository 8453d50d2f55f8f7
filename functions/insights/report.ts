import { raise } from "../../src/core/errors.ts";
import { escapeMarkdown, markdownTable } from "../../src/core/markdown.ts";
import { questionLabel } from "../../src/core/piping.ts";
import { duration, type ReportData } from "../../src/core/report-data.ts";
import { renderReportHtml } from "../../src/core/report-html/document.ts";
import { fieldSection, fieldSummary } from "../../src/core/report-summary.ts";
import type { AppContext } from "../context.ts";
import type { Account } from "../services/accounts.ts";
import { type FormHead, ownedFormHead } from "../services/form-view.ts";
import { collectReport } from "./report-data.ts";

export const PERIODS = { "7d": 7, "30d": 30, "90d": 90, all: null } as const;
export type Period = keyof typeof PERIODS;
export type ReportFormat = "markdown" | "html";

export function parsePeriod(value: string | undefined): Period {
  const period = value ?? "7d";
  if (!(period in PERIODS)) raise("invalid_param", "period must be 7d, 30d, 90d or all.");
  return period as Period;
}

export function parseReportFormat(value: string | undefined): ReportFormat {
  const format = value ?? "markdown";
  if (format !== "markdown" && format !== "html")
    raise("invalid_param", "format must be markdown or html.");
  return format as ReportFormat;
}

export interface ReportOptions {
  field?: string | undefined;
  textLimit?: number | undefined;
}

/** The report's numbers for one of the rolling periods, as of `now`. */
export function periodReport(
  ctx: AppContext,
  row: Pick<FormHead, "id" | "slug" | "title" | "definition">,
  period: Period,
  now = Date.now(),
  options: ReportOptions = {},
): Promise<ReportData> {
  const days = PERIODS[period];
  return collectReport(ctx, row, {
    ...options,
    since: days === null ? null : new Date(now - days * 86_400_000).toISOString(),
    until: null,
    label: days === null ? "all time" : `the last ${days} days`,
    now,
  });
}

/** The report (SPEC §6) as Markdown. */
export async function responseReport(
  ctx: AppContext,
  account: Account,
  slug: string,
  period: Period,
  options: ReportOptions = {},
) {
  const head = await ownedFormHead(ctx, account, slug);
  const data = await periodReport(ctx, head, period, Date.now(), options);
  return { period, markdown: reportMarkdown(data), summary: reportSummary(data) };
}

/** The report's numbers as data (SPEC §14): what an agent reads instead of the prose. */
export const reportSummary = (data: ReportData) => ({
  responses: data.responses,
  fields: data.fields.map((f) => fieldSummary(f, data.tallies.get(f.id)!)),
});

/** The report as one self-contained HTML page, with the numbers it was drawn from. */
export async function responseReportHtml(
  ctx: AppContext,
  account: Account,
  slug: string,
  period: Period,
  options: ReportOptions = {},
) {
  const head = await ownedFormHead(ctx, account, slug);
  const data = await periodReport(ctx, head, period, Date.now(), options);
  return { period, html: renderReportHtml(data), data };
}

/** "· 20 in total" only when it says something the period's count did not already say. */
export const totalNote = (d: Pick<ReportData, "responses" | "totals">) =>
  d.totals.responses === d.responses ? "" : ` · ${d.totals.responses} in total`;

/** The Markdown report: totals, completion, per-field summaries, quiz scores, drop-off. */
export function reportMarkdown(d: ReportData): string {
  const last7 = d.trend.slice(-7).map((t) => t.count);
  const out = [
    `# ${escapeMarkdown(d.title)} — responses report`,
    "",
    `**${d.responses}** responses in ${d.periodLabel}${totalNote(d)} · ${d.totals.views} views · ${d.totals.starts} starts · completion ${Math.round(d.totals.completion_rate * 100)}%`,
    "",
    `Last 7 days: ${last7.join(" · ")} (${d.change.delta >= 0 ? "+" : ""}${d.change.delta} vs the 7 days before)`,
    "",
    "## Answers",
    "",
    ...d.fields.map((f) => fieldSection(f, d.tallies.get(f.id)!, d.responses)),
  ];
  if (d.quiz) {
    const rows = [...d.quiz.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([b, n]) => [`${b}–${b === 90 ? 100 : b + 9}%`, String(n)]);
    out.push(
      "## Quiz scores",
      "",
      rows.length ? markdownTable(["Score", "Responses"], rows) : "No scored responses yet.",
      "",
    );
  }
  if (d.earlier && d.earlier.length > 0)
    out.push(
      "## From earlier versions",
      "",
      "Fields no longer in the form; their answers are kept (and exported as retired columns).",
      "",
      markdownTable(
        ["Field", "Question", "Answers"],
        d.earlier.map((e) => [
          e.field.id,
          e.field.label ? questionLabel(e.field) : "",
          String(e.answered),
        ]),
      ),
      "",
    );
  const labels = new Map(d.fields.map((f) => [f.id, questionLabel(f)]));
  const dropRows = d.dropoff.map((s) => [
    labels.get(s.field) ?? s.field,
    String(s.reached),
    String(s.answered),
    s.reached ? `${Math.round((s.answered / s.reached) * 100)}%` : "0%",
  ]);
  out.push(
    "## Drop-off by field",
    "",
    `Respondents who reached each question (their page reported it, or they answered it) and answered it. Median time to complete: ${duration(d.medianSeconds)}.`,
    "",
    markdownTable(["Field", "Reached", "Answered", "Answered of reached"], dropRows),
    "",
  );
  return out.join("\n");
}
