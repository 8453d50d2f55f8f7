import { answerLines } from "../answer-text.ts";
import { escapeXml } from "../charts/svg.ts";
import { pipe } from "../piping.ts";
import { reportLocale } from "../report-locale.ts";
import type { Form } from "../schema.ts";
import { REPORT_CSS } from "./styles.ts";

export interface ResponseView {
  id: string;
  submitted_at: string;
  payload: Record<string, unknown>;
  score?: { points: number; max_points: number; percent: number } | null;
}

/** The answers as rows of a two-column table, each answer's lines kept apart. */
export function answerRows(form: Form, payload: Record<string, unknown>) {
  return (
    form.fields
      .filter((f) => f.type !== "statement")
      // one response: its own answers fill the label, as the respondent saw it
      .map((f) => ({
        question: pipe(f.label ?? f.id, { answers: payload }),
        lines: answerLines(f, payload[f.id]),
      }))
  );
}

/**
 * One response, read-only, as a self-contained page (the signed link in an email opens it), in
 * the form's language (SPEC §21): its headings, the date and yes/no as the page says them.
 */
export function renderResponseHtml(form: Form, r: ResponseView): string {
  const l = reportLocale(form.locale);
  const types = form.fields.filter((f) => f.type !== "statement").map((f) => f.type);
  const rows = answerRows(form, r.payload)
    .map(
      (a, i) =>
        `<tr><th scope="row">${escapeXml(a.question)}</th><td>${a.lines.length ? a.lines.map((line) => escapeXml(l.option(types[i] ?? "", line)).replace(/\r?\n/g, "<br>")).join("<br>") : "—"}</td></tr>`,
    )
    .join("");
  const score = r.score
    ? `<p>${escapeXml(l.t.score)}: <b>${escapeXml(
        l.say("score_of", {
          points: l.num(r.score.points),
          max: l.num(r.score.max_points),
          percent: l.pct(r.score.percent / 100),
        }),
      )}</b></p>`
    : "";
  const title = l.say("response_title", { title: form.title });
  const submitted = l.say("submitted", { date: l.dateTime(r.submitted_at) });
  const dir = l.dir === "rtl" ? ' dir="rtl"' : "";
  return `<!doctype html><html lang="${escapeXml(l.lang)}"${dir}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeXml(title)}</title><style>${REPORT_CSS}</style></head><body><main><h1>${escapeXml(title)}</h1><p class="meta">${escapeXml(submitted)} · ${escapeXml(r.id)}</p>${score}<section class="card"><table><caption>${escapeXml(l.t.answers_heading)}</caption><tbody>${rows}</tbody></table></section></main></body></html>`;
}
