import { cellText } from "../../src/core/csv.ts";
import { fill, messages } from "../../src/core/locales/index.ts";
import { type OwnerText, ownerText } from "../../src/core/locales/owner-text.ts";
import { answerRows } from "../../src/core/report-html/response-view.ts";
import type { Form } from "../../src/core/schema.ts";
import { escapeHtml } from "../../src/lib/markdown.ts";
import { subjectAnswer } from "./subject-answer.ts";

export interface Email {
  subject: string;
  text: string;
  html: string;
}

/** Where an email's buttons lead: signed, expiring links that open in a browser. */
export interface EmailLinks {
  response?: string;
  report: string;
}

/**
 * Fills {form_title}, {field:<id>}, {var:<id>} (SPEC §24) and {date}; line breaks are stripped
 * (no header injection).
 */
export function fillSubject(
  template: string,
  form: Form,
  payload: Record<string, unknown>,
  date: Date,
  variables: Record<string, unknown> = {},
): string {
  const own = (record: Record<string, unknown>, id: string) =>
    Object.hasOwn(record, id) ? record[id] : undefined;
  return (
    template
      .replace(/\{form_title\}/g, form.title)
      .replace(/\{date\}/g, date.toISOString().slice(0, 10))
      // a respondent's text, to addresses no one verified: plain, short, no links (SPEC §23)
      .replace(/\{(field|var):([a-z][a-z0-9_]*)\}/g, (_m, kind: string, id: string) =>
        subjectAnswer(cellText(own(kind === "var" ? variables : payload, id))),
      )
      .replace(/[\r\n]+/g, " ")
      .trim()
      .slice(0, 250)
  );
}

const FONT = "font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif";
const BUTTON =
  "display:inline-block;background:#1d4ed8;color:#ffffff;text-decoration:none;padding:10px 16px;border-radius:6px;font-weight:600;margin:4px 8px 4px 0";

/** Buttons for the links (inline CSS only: mail clients drop stylesheets). */
export const buttons = (links: [string, string][]) =>
  `<p style="margin:20px 0 8px">${links.map(([label, href]) => `<a href="${escapeHtml(href)}" style="${BUTTON}">${escapeHtml(label)}</a>`).join("")}</p>`;

/** An HTML email: one narrow column with inline styles, readable in every client. */
export function emailHtml(
  title: string,
  inner: string,
  options: { lang?: string; footer?: string } = {},
): string {
  const lang = options.lang ?? "en";
  const dir = lang === "ar" || lang === "he" ? ' dir="rtl"' : "";
  const footer = options.footer ?? ownerText(lang).footer;
  return `<!doctype html><html lang="${escapeHtml(lang)}"${dir}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title></head><body style="margin:0;padding:0;background:#f3f4f6"><div style="max-width:640px;margin:0 auto;padding:20px 16px;${FONT};color:#111827">${inner}<p style="color:#4b5563;font-size:12px;margin-top:28px">${escapeHtml(footer)}</p></div></body></html>`;
}

/**
 * One question and its answer in an email's text part: the answer indented under it, each line
 * of a multi-line answer too (a line of its own would read as the next question).
 */
export const textRow = (r: { question: string; lines: string[] }) =>
  `${r.question}\n${(r.lines.length ? r.lines : ["—"]).map((l) => `  ${l.replace(/\r?\n/g, "\n  ")}`).join("\n")}`;

/** An answer's text as HTML, its own line breaks kept (a multi-line answer). */
const htmlLines = (line: string) => escapeHtml(line).replace(/\r?\n/g, "<br>");

const CELL = "padding:8px 10px;border-bottom:1px solid #e5e7eb;vertical-align:top;text-align:left";
/** The questions and their answers as an HTML table; `empty` for a question left unanswered. */
export const answersTable = (rows: { question: string; lines: string[] }[], empty: string) =>
  `<table role="presentation" cellpadding="0" cellspacing="0" style="border-collapse:collapse;width:100%;background:#ffffff;border:1px solid #e5e7eb">${rows
    .map(
      (r) =>
        `<tr><th style="${CELL};width:40%;font-weight:600">${escapeHtml(r.question)}</th><td style="${CELL}">${r.lines.length ? r.lines.map(htmlLines).join("<br>") : empty}</td></tr>`,
    )
    .join("")}</table>`;

/** "1 response" / "12 responses" in the email's language. */
export const responsesText = (t: OwnerText, n: number) =>
  fill(n === 1 ? t.response_one : t.response_other, { n });

/** A yes/no answer in the form's language (stored as "yes"/"no", the form's own terms). */
export function localAnswerRows(form: Form, payload: Record<string, unknown>) {
  const ui = messages(form.locale);
  const answered = form.fields.filter((f) => f.type !== "statement");
  return answerRows(form, payload).map((r, i) =>
    answered[i]?.type === "yes_no"
      ? { ...r, lines: r.lines.map((l) => (l === "yes" ? ui.yes : l === "no" ? ui.no : l)) }
      : r,
  );
}

export function responseEmail(
  form: Form,
  payload: Record<string, unknown>,
  submittedAt: Date,
  links: EmailLinks,
  variables: Record<string, unknown> = {},
): Email {
  const t = ownerText(form.locale);
  const subject = fillSubject(
    form.notifications.subject ?? fill(t.new_response, { title: "{form_title}" }),
    form,
    payload,
    submittedAt,
    variables,
  );
  const rows = localAnswerRows(form, payload);
  const heading = fill(t.new_response, { title: form.title });
  const text = [
    `${heading} (${submittedAt.toISOString()})`,
    "",
    ...rows.map(textRow),
    "",
    ...(links.response ? [`${t.view_it}: ${links.response}`] : []),
    `${t.report}: ${links.report}`,
  ].join("\n");
  const table = answersTable(rows, '<span style="color:#4b5563">—</span>');
  const html = emailHtml(
    subject,
    `<h1 style="font-size:20px;margin:0 0 4px">${escapeHtml(heading)}</h1><p style="color:#4b5563;margin:0 0 16px">${escapeHtml(submittedAt.toISOString().slice(0, 16).replace("T", " "))} UTC</p>${table}${buttons(
      [
        ...(links.response ? [[t.view_response, links.response] as [string, string]] : []),
        [t.see_report, links.report],
      ],
    )}`,
    { lang: form.locale },
  );
  return { subject, text, html };
}

export function milestoneEmail(form: Form, count: number, links: EmailLinks): Email {
  const t = ownerText(form.locale);
  const target = form.notifications.strategy.target;
  const n = responsesText(t, count);
  const reached = fill(t.reached, { title: form.title, count: n });
  const subject = fillSubject(reached, form, {}, new Date());
  const has = target
    ? fill(t.has_target, { title: form.title, count: n, target })
    : fill(t.has, { title: form.title, count: n });
  const text = `${has}\n\n${t.see_report}: ${links.report}`;
  const html = emailHtml(
    subject,
    `<h1 style="font-size:20px;margin:0 0 12px">${escapeHtml(reached)}</h1><p>${escapeHtml(has)}</p>${buttons([[t.see_report, links.report]])}`,
    { lang: form.locale },
  );
  return { subject, text, html };
}
