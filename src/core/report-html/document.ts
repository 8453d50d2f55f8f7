import { columnChart } from "../charts/column-chart.ts";
import { funnelChart } from "../charts/funnel-chart.ts";
import { escapeXml, percent } from "../charts/svg.ts";
import { questionLabel } from "../piping.ts";
import { duration, type ReportData } from "../report-data.ts";
import { newTally } from "../report-summary.ts";
import { fieldCard, numbersTable } from "./field-card.ts";
import { REPORT_CSS } from "./styles.ts";

const signed = (n: number) => `${n >= 0 ? "+" : ""}${n}`;

function kpis(d: ReportData): string {
  const items: [string, string][] = [
    [
      `${d.responses === 1 ? "response" : "responses"} in ${d.periodLabel}`,
      d.responses.toLocaleString("en-US"),
    ],
    // the total only when the period is not all of it ("20 in all time · 20 in total" says it twice)
    ...(d.totals.responses === d.responses
      ? []
      : [["in total", d.totals.responses.toLocaleString("en-US")] as [string, string]]),
    ["views", d.totals.views.toLocaleString("en-US")],
    ["completion", percent(d.totals.completion_rate)],
    ["median time", duration(d.medianSeconds)],
  ];
  return `<ul class="kpis">${items.map(([k, v]) => `<li><b>${escapeXml(v)}</b>${escapeXml(k)}</li>`).join("")}</ul>`;
}

function trend(d: ReportData): string {
  const week = d.trend.slice(-7).reduce((n, t) => n + t.count, 0);
  const month = d.trend.reduce((n, t) => n + t.count, 0);
  const chart = columnChart(
    "trend",
    `Responses per day over the last 30 days: ${month} in all, ${week} in the last 7`,
    d.trend.map((t) => ({ label: t.date.slice(5), count: t.count })),
    { every: 7, counts: false },
  );
  const change = d.change.percent === null ? "" : ` (${signed(d.change.percent)}%)`;
  return `<section class="card" aria-labelledby="trend-h"><h2 id="trend-h">Responses over time</h2><p class="sub">Last 7 days: <b data-week>${week}</b>, ${signed(d.change.delta)}${change} against the 7 days before · last 30 days: <b data-month>${month}</b></p>${chart}${numbersTable(
    "Responses per day",
    ["Day", "Responses"],
    d.trend.map((t) => [t.date, t.count]),
  )}</section>`;
}

function quiz(scores: Map<number, number>): string {
  const buckets = Array.from({ length: 10 }, (_, i) => ({
    label: `${i * 10}–${i === 9 ? 100 : i * 10 + 9}%`,
    count: scores.get(i * 10) ?? 0,
  }));
  return `<h2 id="quiz-h">Quiz scores</h2><section class="card" aria-labelledby="quiz-h">${columnChart("quiz", "Responses per score range", buckets, { every: 3 })}${numbersTable(
    "Quiz scores",
    ["Score", "Responses"],
    buckets.map((b) => [b.label, b.count]),
  )}</section>`;
}

/** Fields of earlier versions, kept with their answers (SPEC §16). */
function earlier(d: ReportData): string {
  if (!d.earlier || d.earlier.length === 0) return "";
  const rows = d.earlier
    .map(
      (e) =>
        `<tr><td>${escapeXml(e.field.id)}</td><td>${escapeXml(e.field.label ? questionLabel(e.field) : "")}</td><td>${e.answered}</td></tr>`,
    )
    .join("");
  return `<h2 id="earlier-h">From earlier versions</h2><section class="card" aria-labelledby="earlier-h"><p class="sub">Fields no longer in the form; their answers are kept and exported as retired columns.</p><table><thead><tr><th>Field</th><th>Question</th><th>Answers</th></tr></thead><tbody>${rows}</tbody></table></section>`;
}

function dropoff(d: ReportData): string {
  if (d.dropoff.length === 0) return "";
  const labels = new Map(d.fields.map((f) => [f.id, questionLabel(f)]));
  const rows = d.dropoff.map((s) => ({ label: labels.get(s.field) ?? s.field, ...s }));
  return `<h2 id="drop-h">Drop-off by field</h2><section class="card" aria-labelledby="drop-h"><p class="sub">How many respondents reached each field, and how many of those answered it. Median time to complete: <b data-median-seconds>${escapeXml(duration(d.medianSeconds))}</b>.</p>${funnelChart(
    "drop",
    "Respondents who reached each field, and answered it",
    rows,
  )}${numbersTable(
    "Drop-off by field",
    ["Field", "Reached", "Answered", "Answered of reached"],
    rows.map((r) => [
      r.label,
      r.reached,
      r.answered,
      percent(r.reached ? r.answered / r.reached : 0),
    ]),
  )}</section>`;
}

/**
 * The report as one self-contained HTML document: inline CSS and SVG, no script, no request
 * for anything outside it. Every author string and answer is escaped.
 */
export function renderReportHtml(
  d: ReportData,
  options: { footer?: string; intro?: string } = {},
): string {
  const cards = d.fields
    .map((f, i) => fieldCard(f, d.tallies.get(f.id) ?? newTally(), d.responses, i + 1))
    .join("");
  const title = `${d.title} — responses report`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeXml(title)}</title><style>${REPORT_CSS}</style></head><body><main><header><h1>${escapeXml(title)}</h1><p class="meta">Period: ${escapeXml(d.periodLabel)} · generated ${escapeXml(d.generatedAt.slice(0, 16).replace("T", " "))} UTC</p>${kpis(d)}</header>${options.intro ?? ""}${trend(d)}<h2>Answers</h2><div class="grid">${cards || "<p>This form has no questions to summarise.</p>"}</div>${d.quiz ? quiz(d.quiz) : ""}${dropoff(d)}${earlier(d)}<footer>${options.footer ?? `Formdown report for ${escapeXml(d.slug)}.`}</footer></main></body></html>`;
}
