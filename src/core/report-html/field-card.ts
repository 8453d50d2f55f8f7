import { barChart } from "../charts/bar-chart.ts";
import { columnChart } from "../charts/column-chart.ts";
import { heatTable } from "../charts/heat-table.ts";
import { splitBar } from "../charts/split-bar.ts";
import { escapeXml } from "../charts/svg.ts";
import type { Field } from "../field-schema.ts";
import { fill } from "../locales/index.ts";
import { questionLabel } from "../piping.ts";
import { type Figures, fieldFigures } from "../report-figures.ts";
import type { ReportLocale } from "../report-locale.ts";
import { answeredLine, type Tally, withLine } from "../report-summary.ts";

/** A table of the chart's numbers, folded under the chart (the chart's text equivalent). */
export function numbersTable(
  l: ReportLocale,
  caption: string,
  head: string[],
  rows: (string | number)[][],
): string {
  const th = head.map((h) => `<th scope="col">${escapeXml(h)}</th>`).join("");
  const tr = rows
    .map(
      (r) =>
        `<tr>${r.map((c, i) => (i === 0 ? `<th scope="row">${escapeXml(String(c))}</th>` : `<td class="n">${escapeXml(String(c))}</td>`)).join("")}</tr>`,
    )
    .join("");
  return `<details><summary>${escapeXml(l.t.numbers)}</summary><table><caption>${escapeXml(caption)}</caption><thead><tr>${th}</tr></thead><tbody>${tr}</tbody></table></details>`;
}

/** A report text as HTML: the text escaped, then filled with values that are markup already. */
export const sayHtml = (
  l: ReportLocale,
  key: keyof ReportLocale["t"],
  values: Record<string, string>,
) => fill(escapeXml(l.t[key]), values);

const TONE = (v: number) => (v <= 6 ? "det" : v <= 8 ? "pas" : "pro");

type Numbers = Extract<Figures, { kind: "numbers" }>;

/** Mean and median, the NPS split where the field is one, and the histogram. */
function numbersBody(f: Numbers, id: string, label: string, l: ReportLocale): string {
  const { t } = l;
  const legend = (s: { label: string; count: number }, share: number) =>
    `${s.label} ${l.count(s.count)} (${l.pct(share)})`;
  const nps = f.nps
    ? `<p class="score" data-nps="${f.nps.score}">NPS ${escapeXml(l.num(f.nps.score))}</p>${splitBar(
        `${id}-s`,
        l.say("nps_split", { label }),
        [
          { label: t.detractors, count: f.nps.detractors, tone: "det" },
          { label: t.passives, count: f.nps.passives, tone: "pas" },
          { label: t.promoters, count: f.nps.promoters, tone: "pro" },
        ],
        legend,
      )}`
    : "";
  const columns = f.bins.map((b) => ({
    label: b.label,
    count: b.count,
    ...(f.nps ? { tone: TONE(Number(b.label)) } : {}),
    // a whole value (not a range) is an answer the report app can list responses of
    ...(/^-?\d+$/.test(b.label) ? { key: b.label } : {}),
  }));
  const split = f.nps
    ? numbersTable(
        l,
        `${label}: NPS ${l.num(f.nps.score)}`,
        [t.group, t.count],
        [
          [`${t.detractors} (0–6)`, l.count(f.nps.detractors)],
          [`${t.passives} (7–8)`, l.count(f.nps.passives)],
          [`${t.promoters} (9–10)`, l.count(f.nps.promoters)],
        ],
      )
    : "";
  const mean = sayHtml(l, "mean_median", {
    mean: `<b data-mean>${escapeXml(l.num(f.mean))}</b>`,
    median: `<b data-median>${escapeXml(l.num(f.median))}</b>`,
  });
  return (
    `<p>${mean}</p>${nps}${split}` +
    columnChart(id, l.say("distribution", { label }), columns) +
    numbersTable(
      l,
      label,
      [t.value, t.count, t.share],
      f.bins.map((b) => [b.label, l.count(b.count), l.pct(b.share)]),
    )
  );
}

/** The chart that fits a field's figures, with its numbers as a table. */
function body(field: Field, f: Figures, id: string, label: string, l: ReportLocale): string {
  const { t } = l;
  switch (f.kind) {
    case "empty":
      return `<p>${escapeXml(t.no_answers)}</p>`;
    case "choices": {
      const bars = f.bars.map((b) => ({
        ...b,
        key: b.label,
        label: l.option(field.type, b.label),
      }));
      return (
        barChart(
          id,
          l.say("per_option", { label }),
          bars.map((b) => ({
            label: b.label,
            value: b.share,
            text: `${l.count(b.count)} · ${l.pct(b.share)}`,
            key: b.key,
          })),
        ) +
        numbersTable(
          l,
          label,
          [t.option, t.count, t.share],
          bars.map((b) => [b.label, l.count(b.count), l.pct(b.share)]),
        )
      );
    }
    case "numbers":
      return numbersBody(f, id, label, l);
    case "matrix":
      return heatTable(l.say("per_row", { label }), t.row, f.rows, f.columns, f.cells);
    case "ranking": {
      const k = f.ranks.length;
      return (
        barChart(
          id,
          l.say("rank_chart", { label }),
          f.ranks.map((r) => ({
            label: r.label,
            value: k <= 1 ? 1 : (k - r.average + 1) / k,
            text: l.say("average_n", { n: l.num(r.average) }),
          })),
        ) +
        numbersTable(
          l,
          label,
          [t.option, t.average_rank],
          f.ranks.map((r) => [r.label, l.num(r.average)]),
        )
      );
    }
    case "text":
      // each with its respondent's key answers: a comment is read beside its score
      return `<p>${escapeXml(t.recent_answers)}</p>${f.recent
        .map((a, i) => {
          const beside = withLine(f.with[i]);
          return `<blockquote>${escapeXml(a)}${beside ? `<footer>${escapeXml(beside)}</footer>` : ""}</blockquote>`;
        })
        .join("")}`;
  }
}

/** One card per answerable field: its heading, answered count and the chart that fits its type. */
export function fieldCard(
  field: Field,
  tally: Tally,
  responses: number,
  n: number,
  l: ReportLocale,
): string {
  // `{field:x}` in a label becomes "[x]": no one respondent's answer applies to a report
  const label = questionLabel(field);
  const id = `c${n}`;
  const answered = answeredLine(tally, responses, l.say, l.count, l.pct);
  const head = `<h3 id="${id}-h">${escapeXml(label)}</h3><p class="sub">${escapeXml(answered)}</p>`;
  const content = body(field, fieldFigures(field, tally), id, label, l);
  return `<section class="card" aria-labelledby="${id}-h" data-field="${escapeXml(field.id)}" data-type="${field.type}">${head}${content}</section>`;
}
