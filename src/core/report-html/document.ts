import { barChart } from "../charts/bar-chart.ts";
import { columnChart } from "../charts/column-chart.ts";
import { funnelChart } from "../charts/funnel-chart.ts";
import { escapeXml } from "../charts/svg.ts";
import { logicRows } from "../logic/summary.ts";
import { questionLabel } from "../piping.ts";
import type { ReportData } from "../report-data.ts";
import { type ReportLocale, reportLocale } from "../report-locale.ts";
import { newTally } from "../report-summary.ts";
import { reportHeading } from "../where/describe.ts";
import { fieldCard, numbersTable, sayHtml } from "./field-card.ts";
import { REPORT_CSS } from "./styles.ts";

function kpis(d: ReportData, l: ReportLocale): string {
  const { t } = l;
  const period = l.period(d.period);
  const items: [string, string][] = [
    [
      l.say(l.one(d.responses) ? "kpi_responses_one" : "kpi_responses_other", { period }),
      l.count(d.responses),
    ],
    // the total only when the period is not all of it ("20 in all time · 20 in total" says it twice)
    ...(d.totals.responses === d.responses
      ? []
      : [[t.in_total, l.count(d.totals.responses)] as [string, string]]),
    [t.views, l.count(d.totals.views)],
    [t.completion, l.pct(d.totals.completion_rate)],
    [t.median_time, l.duration(d.medianSeconds)],
  ];
  return `<ul class="kpis">${items.map(([k, v]) => `<li><b>${escapeXml(v)}</b>${escapeXml(k)}</li>`).join("")}</ul>`;
}

function trend(d: ReportData, l: ReportLocale): string {
  const { t } = l;
  const week = d.trend.slice(-7).reduce((n, x) => n + x.count, 0);
  const month = d.trend.reduce((n, x) => n + x.count, 0);
  const chart = columnChart(
    "trend",
    l.say("trend_chart", { month: l.count(month), week: l.count(week) }),
    d.trend.map((x) => ({ label: l.day(x.date), count: x.count })),
    { every: 7, counts: false, peak: t.peak },
  );
  const change = d.change.percent === null ? "" : ` (${l.signed(d.change.percent)}%)`;
  const sub = sayHtml(l, "trend_sub", {
    week: `<b data-week>${week}</b>`,
    delta: escapeXml(`${l.signed(d.change.delta)}${change}`),
    month: `<b data-month>${month}</b>`,
  });
  return `<section class="card" aria-labelledby="trend-h"><h2 id="trend-h">${escapeXml(t.trend_heading)}</h2><p class="sub">${sub}</p>${chart}${numbersTable(
    l,
    t.per_day,
    [t.day, t.responses],
    d.trend.map((x) => [l.date(x.date), x.count]),
  )}</section>`;
}

function quiz(scores: Map<number, number>, l: ReportLocale): string {
  const { t } = l;
  const buckets = Array.from({ length: 10 }, (_, i) => ({
    label: l.scoreRange(i * 10),
    count: scores.get(i * 10) ?? 0,
  }));
  return `<h2 id="quiz-h">${escapeXml(t.quiz_heading)}</h2><section class="card" aria-labelledby="quiz-h">${columnChart("quiz", t.quiz_chart, buckets, { every: 3 })}${numbersTable(
    l,
    t.quiz_heading,
    [t.score, t.responses],
    buckets.map((b) => [b.label, b.count]),
  )}</section>`;
}

/** Responses per language (SPEC §20): bars, and the same figures as a table. */
function languages(d: ReportData, l: ReportLocale): string {
  if (!d.languages) return "";
  const { t } = l;
  const rows = d.languages.map((r) => {
    const share = d.responses ? r.count / d.responses : 0;
    return {
      label: l.language(r.lang),
      value: share,
      text: `${l.count(r.count)} · ${l.pct(share)}`,
      count: r.count,
    };
  });
  return `<h2 id="lang-h">${escapeXml(t.languages_heading)}</h2><section class="card" aria-labelledby="lang-h">${barChart("langs", t.languages_heading, rows)}${numbersTable(
    l,
    t.languages_heading,
    [t.language, t.responses],
    rows.map((r) => [r.label, r.count]),
  )}</section>`;
}

/** Responses per ending and the variables' figures (SPEC §24), as tables. */
function logic(d: ReportData, l: ReportLocale): string {
  if (!d.logic) return "";
  const { t } = l;
  const out: string[] = [];
  if (d.logic.endings.length > 0)
    out.push(
      `<h2 id="endings-h">${escapeXml(t.endings_heading)}</h2><section class="card" aria-labelledby="endings-h">${numbersTable(
        l,
        t.endings_heading,
        [t.ending, t.responses],
        d.logic.endings.map((e) => [e.id, e.count]),
      )}</section>`,
    );
  if (d.logic.variables.length > 0)
    out.push(
      `<h2 id="vars-h">${escapeXml(t.variables_heading)}</h2><section class="card" aria-labelledby="vars-h">${numbersTable(
        l,
        t.variables_heading,
        [t.variable, t.responses, t.variable_figures],
        logicRows(d.logic, l),
      )}</section>`,
    );
  return out.join("");
}

/** Fields of earlier versions, kept with their answers (SPEC §16). */
function earlier(d: ReportData, l: ReportLocale): string {
  if (!d.earlier || d.earlier.length === 0) return "";
  const { t } = l;
  const rows = d.earlier
    .map(
      (e) =>
        `<tr><td>${escapeXml(e.field.id)}</td><td>${escapeXml(e.field.label ? questionLabel(e.field) : "")}</td><td>${escapeXml(l.count(e.answered))}</td></tr>`,
    )
    .join("");
  const head = [t.field, t.question, t.answers_heading].map((h) => `<th>${escapeXml(h)}</th>`);
  return `<h2 id="earlier-h">${escapeXml(t.earlier_heading)}</h2><section class="card" aria-labelledby="earlier-h"><p class="sub">${escapeXml(t.earlier_note)}</p><table><thead><tr>${head.join("")}</tr></thead><tbody>${rows}</tbody></table></section>`;
}

function dropoff(d: ReportData, l: ReportLocale): string {
  if (d.dropoff.length === 0) return "";
  const { t } = l;
  const labels = new Map(d.fields.map((f) => [f.id, questionLabel(f)]));
  const rows = d.dropoff.map((s) => ({ label: labels.get(s.field) ?? s.field, ...s }));
  const median = sayHtml(l, "median_complete", {
    duration: `<b data-median-seconds>${escapeXml(l.duration(d.medianSeconds))}</b>`,
  });
  return `<h2 id="drop-h">${escapeXml(t.dropoff_heading)}</h2><section class="card" aria-labelledby="drop-h"><p class="sub">${escapeXml(t.dropoff_note)} ${median}</p>${funnelChart(
    "drop",
    t.dropoff_chart,
    rows,
  )}${numbersTable(
    l,
    t.dropoff_heading,
    [t.field, t.reached, t.answered, t.answered_of_reached],
    rows.map((r) => [
      r.label,
      r.reached,
      r.answered,
      l.pct(r.reached ? r.answered / r.reached : 0),
    ]),
  )}</section>`;
}

/**
 * The report as one self-contained HTML document in the form's language (`lang`, and `dir="rtl"`
 * for Arabic and Hebrew): inline CSS and SVG, no script, no request for anything outside it.
 * Every author string and answer is escaped.
 */
export function renderReportHtml(
  d: ReportData,
  options: { footer?: string; intro?: string } = {},
): string {
  const l = reportLocale(d.locale);
  const { t } = l;
  const cards = d.fields
    .map((f, i) => fieldCard(f, d.tallies.get(f.id) ?? newTally(), d.responses, i + 1, l))
    .join("");
  const title = reportHeading(d, l);
  const meta = l.say("meta", { period: l.period(d.period), date: l.dateTime(d.generatedAt) });
  const footer = options.footer ?? escapeXml(l.say("footer", { slug: d.slug }));
  const dir = l.dir === "rtl" ? ' dir="rtl"' : "";
  return `<!doctype html><html lang="${escapeXml(l.lang)}"${dir}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeXml(title)}</title><style>${REPORT_CSS}</style></head><body><main><header><h1>${escapeXml(title)}</h1><p class="meta">${escapeXml(meta)}</p>${kpis(d, l)}</header>${options.intro ?? ""}${trend(d, l)}<h2>${escapeXml(t.answers_heading)}</h2><div class="grid">${cards || `<p>${escapeXml(t.no_questions)}</p>`}</div>${d.quiz ? quiz(d.quiz, l) : ""}${languages(d, l)}${logic(d, l)}${dropoff(d, l)}${earlier(d, l)}<footer>${footer}</footer></main></body></html>`;
}
