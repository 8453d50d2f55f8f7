import { answerLines } from "../answer-text.ts";
import { escapeXml } from "../charts/svg.ts";
import { pipe } from "../piping.ts";
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

/** One response, read-only, as a self-contained page (the signed link in an email opens it). */
export function renderResponseHtml(form: Form, r: ResponseView): string {
  const rows = answerRows(form, r.payload)
    .map(
      (a) =>
        `<tr><th scope="row">${escapeXml(a.question)}</th><td>${a.lines.length ? a.lines.map(escapeXml).join("<br>") : "—"}</td></tr>`,
    )
    .join("");
  const score = r.score
    ? `<p>Score: <b>${r.score.points} of ${r.score.max_points}</b> (${r.score.percent}%)</p>`
    : "";
  const title = `Response to ${form.title}`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeXml(title)}</title><style>${REPORT_CSS}</style></head><body><main><h1>${escapeXml(title)}</h1><p class="meta">Submitted ${escapeXml(r.submitted_at.slice(0, 16).replace("T", " "))} UTC · ${escapeXml(r.id)}</p>${score}<section class="card"><table><caption>Answers</caption><tbody>${rows}</tbody></table></section></main></body></html>`;
}
