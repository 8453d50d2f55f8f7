import type { ReportData } from "../../src/core/report-data.ts";
import { renderReportHtml } from "../../src/core/report-html/document.ts";
import { reportMarkdown } from "../../src/core/report-markdown.ts";
import { fieldSummary } from "../../src/core/report-summary.ts";
import type { AppContext } from "../context.ts";
import type { Account } from "../services/accounts.ts";
import { type FormHead, ownedFormHead } from "../services/form-view.ts";
import { collectReport } from "./report-data.ts";

export const PERIODS = { "7d": 7, "30d": 30, "90d": 90, all: null } as const;
export type Period = keyof typeof PERIODS;
export type ReportFormat = "markdown" | "html";

export interface ReportOptions {
  field?: string | undefined;
  textLimit?: number | undefined;
  /** Test answers counted too (SPEC §16: left out unless asked for). */
  withTest?: boolean | undefined;
  /** A segment (SPEC §18): `where` as received (REST: JSON text; MCP: the array). */
  where?: unknown;
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
    period: days === null ? { kind: "all" } : { kind: "days", days },
    now,
  });
}

/**
 * The report (SPEC §6) as Markdown, or as one self-contained HTML page, with its numbers as data
 * (SPEC §14).
 */
export async function responseReport(
  ctx: AppContext,
  account: Account,
  slug: string,
  period: Period,
  options: ReportOptions = {},
  format: ReportFormat = "markdown",
) {
  const head = await ownedFormHead(ctx, account, slug);
  const data = await periodReport(ctx, head, period, Date.now(), options);
  const summary = reportSummary(data);
  if (format === "html") return { period, format, html: renderReportHtml(data), summary };
  return { period, markdown: reportMarkdown(data), summary };
}

/** The report's numbers as data (SPEC §14): what an agent reads instead of the prose. */
export const reportSummary = (data: ReportData) => ({
  responses: data.responses,
  fields: data.fields.map((f) => fieldSummary(f, data.tallies.get(f.id)!)),
});
