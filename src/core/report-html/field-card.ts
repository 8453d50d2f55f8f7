import { barChart } from "../charts/bar-chart.ts";
import { columnChart } from "../charts/column-chart.ts";
import { heatTable } from "../charts/heat-table.ts";
import { splitBar } from "../charts/split-bar.ts";
import { escapeXml, percent } from "../charts/svg.ts";
import type { Field } from "../field-schema.ts";
import { questionLabel } from "../piping.ts";
import { fieldFigures } from "../report-figures.ts";
import type { Tally } from "../report-summary.ts";

/** A table of the chart's numbers, folded under the chart (the chart's text equivalent). */
export function numbersTable(caption: string, head: string[], rows: (string | number)[][]): string {
  const th = head.map((h) => `<th scope="col">${escapeXml(h)}</th>`).join("");
  const tr = rows
    .map(
      (r) =>
        `<tr>${r.map((c, i) => (i === 0 ? `<th scope="row">${escapeXml(String(c))}</th>` : `<td class="n">${escapeXml(String(c))}</td>`)).join("")}</tr>`,
    )
    .join("");
  return `<details><summary>Numbers</summary><table><caption>${escapeXml(caption)}</caption><thead><tr>${th}</tr></thead><tbody>${tr}</tbody></table></details>`;
}

const TONE = (v: number) => (v <= 6 ? "det" : v <= 8 ? "pas" : "pro");

/** One card per answerable field: its heading, answered count and the chart that fits its type. */
export function fieldCard(field: Field, tally: Tally, responses: number, n: number): string {
  const label = questionLabel(field);
  const id = `c${n}`;
  const head = `<h3 id="${id}-h">${escapeXml(label)}</h3><p class="sub">${tally.answered} of ${responses} answered (${percent(responses ? tally.answered / responses : 0)})</p>`;
  const f = fieldFigures(field, tally);
  let body: string;
  switch (f.kind) {
    case "empty":
      body = "<p>No answers yet.</p>";
      break;
    case "choices":
      body =
        barChart(
          id,
          `${label}: answers per option`,
          f.bars.map((b) => ({
            label: b.label,
            value: b.share,
            text: `${b.count} · ${percent(b.share)}`,
          })),
        ) +
        numbersTable(
          label,
          ["Option", "Count", "Share"],
          f.bars.map((b) => [b.label, b.count, percent(b.share)]),
        );
      break;
    case "numbers": {
      const nps = f.nps
        ? `<p class="score" data-nps="${f.nps.score}">NPS ${f.nps.score}</p>${splitBar(
            `${id}-s`,
            `${label}: NPS split`,
            [
              { label: "Detractors", count: f.nps.detractors, tone: "det" },
              { label: "Passives", count: f.nps.passives, tone: "pas" },
              { label: "Promoters", count: f.nps.promoters, tone: "pro" },
            ],
          )}`
        : "";
      const columns = f.bins.map((b) => ({
        label: b.label,
        count: b.count,
        ...(f.nps ? { tone: TONE(Number(b.label)) } : {}),
      }));
      const split = f.nps
        ? numbersTable(
            `${label}: NPS ${f.nps.score}`,
            ["Group", "Count"],
            [
              ["Detractors (0–6)", f.nps.detractors],
              ["Passives (7–8)", f.nps.passives],
              ["Promoters (9–10)", f.nps.promoters],
            ],
          )
        : "";
      body =
        `<p>Mean <b data-mean>${f.mean}</b>, median <b data-median>${f.median}</b></p>${nps}${split}` +
        columnChart(id, `${label}: distribution of answers`, columns) +
        numbersTable(
          label,
          ["Value", "Count", "Share"],
          f.bins.map((b) => [b.label, b.count, percent(b.share)]),
        );
      break;
    }
    case "matrix":
      body = heatTable(`${label}: answers per row`, f.rows, f.columns, f.cells);
      break;
    case "ranking": {
      const k = f.ranks.length;
      body =
        barChart(
          id,
          `${label}: average rank (1 is first)`,
          f.ranks.map((r) => ({
            label: r.label,
            value: k <= 1 ? 1 : (k - r.average + 1) / k,
            text: `average ${r.average}`,
          })),
        ) +
        numbersTable(
          label,
          ["Option", "Average rank"],
          f.ranks.map((r) => [r.label, r.average]),
        );
      break;
    }
    case "text":
      body = `<p>Most recent answers:</p>${f.recent.map((t) => `<blockquote>${escapeXml(t)}</blockquote>`).join("")}`;
      break;
  }
  return `<section class="card" aria-labelledby="${id}-h" data-field="${escapeXml(field.id)}">${head}${body}</section>`;
}
