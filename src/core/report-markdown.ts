// The report as Markdown (SPEC §6), in the form's language (SPEC §21): what the REST report, the
// MCP tool and the digest's text part say. Every author string and answer is escaped.
import type { Field } from "./field-schema.ts";
import { logicSection } from "./logic/summary.ts";
import { escapeMarkdown, markdownTable } from "./markdown.ts";
import { optionValue } from "./options.ts";
import { questionLabel } from "./piping.ts";
import type { ReportData } from "./report-data.ts";
import { type ReportLocale, reportLocale } from "./report-locale.ts";
import {
  answeredLine,
  npsFigures,
  numberStats,
  round,
  type Tally,
  withLine,
} from "./report-summary.ts";
import { reportHeading } from "./where/describe.ts";

const share = (n: number, of: number) => (of === 0 ? 0 : n / of);

/** The Markdown section of one field; every author string and answer escaped. */
export function fieldSection(
  field: Field,
  tally: Tally,
  responses: number,
  l: ReportLocale,
): string {
  const answered = answeredLine(tally, responses, l.say, l.count, l.pct);
  const title = `### ${escapeMarkdown(questionLabel(field))}\n\n_${answered}_\n\n`;
  if (tally.answered === 0) return `${title}${l.t.no_answers}\n`;
  const { t } = l;
  if (field.type === "ranking") {
    const rows = [...tally.ranks.entries()]
      .map(([o, sum]) => [o, round(sum / tally.answered)] as const)
      .sort((a, b) => a[1] - b[1])
      .map(([o, average]) => [o, l.num(average)]);
    return `${title}${markdownTable([t.option, t.average_rank], rows)}\n`;
  }
  if ("options" in field || field.type === "yes_no") {
    const options = field.type === "yes_no" ? ["yes", "no"] : field.options.map(optionValue);
    const rows = options.map((o) => {
      const count = tally.counts.get(o) ?? 0;
      return [l.option(field.type, o), l.count(count), l.pct(share(count, tally.answered))];
    });
    return `${title}${markdownTable([t.option, t.count, t.share], rows)}\n`;
  }
  if (field.type === "matrix") {
    const rows = field.rows.map((r) => [
      r.label,
      ...field.columns.map((c) => l.count(tally.matrix.get(r.id)?.get(c) ?? 0)),
    ]);
    return `${title}${markdownTable([t.row, ...field.columns], rows)}\n`;
  }
  if (tally.numbers.size > 0) return numbersSection(field, tally, title, l);
  const more = tally.answered - tally.recent.length;
  // a cut is announced, never silent (SPEC §14)
  const rest = more > 0 ? `\n_${l.say("more_answers", { n: l.count(more) })}_\n` : "";
  // each with its respondent's key answers: a comment is read beside its score
  const quote = (a: string, i: number) => {
    const beside = withLine(tally.recentWith[i]);
    return `> ${escapeMarkdown(a).replace(/\r?\n/g, " ")}${beside ? `\n> — ${escapeMarkdown(beside)}` : ""}`;
  };
  return `${title}${t.recent_answers}\n\n${tally.recent.map(quote).join("\n>\n")}\n${rest}`;
}

function numbersSection(field: Field, tally: Tally, title: string, l: ReportLocale): string {
  const s = numberStats(tally.numbers);
  let text = `${title}${l.say("mean_median", { mean: `**${l.num(s.mean)}**`, median: `**${l.num(s.median)}**` })}.\n\n`;
  if (field.type === "nps") {
    const n = npsFigures(s.sorted, s.total);
    const part = (k: number) => `${l.count(k)} (${l.pct(share(k, s.total))})`;
    text += `${l.say("nps_line", {
      score: `**${l.num(n.score)}**`,
      promoters: part(n.promoters),
      passives: part(n.passives),
      detractors: part(n.detractors),
    })}.\n\n`;
  }
  const hidden = s.sorted.length - 20;
  const rows = s.sorted.slice(0, 20).map(([v, c]) => [l.num(v), l.count(c)]);
  const more = hidden > 0 ? `\n_${l.say("more_values", { n: l.count(hidden) })}_\n` : "";
  return `${text}${markdownTable([l.t.value, l.t.count], rows)}\n${more}`;
}

/** Responses per language (SPEC §20): each language named in the report's, with its code. */
function languagesSection(
  rows: NonNullable<ReportData["languages"]>,
  responses: number,
  l: ReportLocale,
): string[] {
  const { t } = l;
  const table = rows.map((r) => [
    l.language(r.lang),
    l.count(r.count),
    l.pct(share(r.count, responses)),
  ]);
  return [
    `## ${t.languages_heading}`,
    "",
    markdownTable([t.language, t.responses, t.share], table),
    "",
  ];
}

/** The Markdown report: totals, completion, per-field summaries, quiz scores, drop-off. */
export function reportMarkdown(d: ReportData): string {
  const l = reportLocale(d.locale);
  const { t } = l;
  const period = l.period(d.period);
  const responses = l.say(l.one(d.responses) ? "kpi_responses_one" : "kpi_responses_other", {
    period,
  });
  // the total only when the period is not all of it ("20 in all time · 20 in total" says it twice)
  const total =
    d.totals.responses === d.responses
      ? ""
      : ` · ${l.say("n_in_total", { n: l.count(d.totals.responses) })}`;
  const last7 = d.trend.slice(-7).map((x) => l.count(x.count));
  const out = [
    `# ${escapeMarkdown(reportHeading(d, l))}`,
    "",
    `**${l.count(d.responses)}** ${responses}${total} · ${l.say("n_views", { n: l.count(d.totals.views) })} · ${l.say("n_starts", { n: l.count(d.totals.starts) })} · ${l.say("completion_n", { pct: l.pct(d.totals.completion_rate) })}`,
    "",
    l.say("last_7_md", { days: last7.join(" · "), delta: l.signed(d.change.delta) }),
    "",
    `## ${t.answers_heading}`,
    "",
    ...d.fields.map((f) => fieldSection(f, d.tallies.get(f.id)!, d.responses, l)),
  ];
  if (d.quiz) {
    const rows = [...d.quiz.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([b, n]) => [l.scoreRange(b), l.count(n)]);
    out.push(
      `## ${t.quiz_heading}`,
      "",
      rows.length ? markdownTable([t.score, t.responses], rows) : t.no_scores,
      "",
    );
  }
  if (d.languages) out.push(...languagesSection(d.languages, d.responses, l));
  if (d.logic) out.push(...logicSection(d.logic, l));
  if (d.earlier && d.earlier.length > 0)
    out.push(
      `## ${t.earlier_heading}`,
      "",
      t.earlier_note,
      "",
      markdownTable(
        [t.field, t.question, t.answers_heading],
        d.earlier.map((e) => [
          e.field.id,
          e.field.label ? questionLabel(e.field) : "",
          l.count(e.answered),
        ]),
      ),
      "",
    );
  const labels = new Map(d.fields.map((f) => [f.id, questionLabel(f)]));
  const dropRows = d.dropoff.map((s) => [
    labels.get(s.field) ?? s.field,
    l.count(s.reached),
    l.count(s.answered),
    l.pct(share(s.answered, s.reached)),
  ]);
  out.push(
    `## ${t.dropoff_heading}`,
    "",
    `${t.dropoff_note} ${l.say("median_complete", { duration: l.duration(d.medianSeconds) })}`,
    "",
    markdownTable([t.field, t.reached, t.answered, t.answered_of_reached], dropRows),
    "",
  );
  return out.join("\n");
}
