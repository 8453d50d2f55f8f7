import { raise } from "../../src/core/errors.ts";
import { escapeMarkdown, markdownTable } from "../../src/core/markdown.ts";
import { fieldSection, fieldSummary } from "../../src/core/report-summary.ts";
import type { AppContext } from "../context.ts";
import type { Account } from "../services/accounts.ts";
import { ownedFormHead } from "../services/form-view.ts";
import { reportTallies } from "./report-tallies.ts";
import { statsFor } from "./stats.ts";

export const PERIODS = { "7d": 7, "30d": 30, "90d": 90, all: null } as const;
export type Period = keyof typeof PERIODS;

export function parsePeriod(value: string | undefined): Period {
  const period = value ?? "7d";
  if (!(period in PERIODS)) raise("invalid_param", "period must be 7d, 30d, 90d or all.");
  return period as Period;
}

/** The Markdown report (SPEC §6): totals, completion, per-field summaries, quiz scores, drop-off. */
export async function responseReport(
  ctx: AppContext,
  account: Account,
  slug: string,
  period: Period,
  options: { field?: string | undefined; textLimit?: number } = {},
) {
  const row = await ownedFormHead(ctx, account, slug);
  const days = PERIODS[period];
  const since = days === null ? null : new Date(Date.now() - days * 86_400_000).toISOString();
  const all = row.definition.fields.filter((f) => f.type !== "statement");
  const fields = options.field === undefined ? all : all.filter((f) => f.id === options.field);
  if (fields.length === 0)
    raise(
      "invalid_param",
      `field must be one of the form's answerable fields: ${all.map((f) => f.id).join(", ")}.`,
    );
  const quiz = row.definition.type === "quiz";
  const [{ responses, tallies, scores }, stats] = await Promise.all([
    reportTallies(ctx, row.id, fields, since, quiz, options.textLimit),
    statsFor(ctx, row),
  ]);
  const label = days === null ? "all time" : `the last ${days} days`;
  const out = [
    `# ${escapeMarkdown(row.title)} — responses report`,
    "",
    `**${responses}** responses in ${label} · ${stats.responses} in total · ${stats.views} views · ${stats.starts} starts · completion ${Math.round(stats.completion_rate * 100)}%`,
    "",
    `Last 7 days: ${stats.sparkline_7d.map((d) => d.count).join(" · ")} (${stats.change.delta >= 0 ? "+" : ""}${stats.change.delta} vs the 7 days before)`,
    "",
    "## Answers",
    "",
    ...fields.map((f) => fieldSection(f, tallies.get(f.id)!, responses)),
  ];
  if (quiz) {
    const rows = [...scores.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([b, n]) => [`${b}–${b === 90 ? 100 : b + 9}%`, String(n)]);
    out.push(
      "## Quiz scores",
      "",
      rows.length ? markdownTable(["Score", "Responses"], rows) : "No scored responses yet.",
      "",
    );
  }
  const dropRows = fields.map((f) => [
    f.label ?? f.id,
    String(tallies.get(f.id)!.answered),
    responses ? `${Math.round((tallies.get(f.id)!.answered / responses) * 100)}%` : "0%",
  ]);
  out.push(
    "## Drop-off by field",
    "",
    `Of ${stats.starts} starts, ${stats.responses} submitted. Answers per field:`,
    "",
    markdownTable(["Field", "Answered", "Share of responses"], dropRows),
    "",
  );
  const summary = {
    responses,
    fields: fields.map((f) => fieldSummary(f, tallies.get(f.id)!)),
  };
  return { period, markdown: out.join("\n"), summary };
}
