// The confirmation email to the respondent (SPEC §21, `notifications.respondent`): a copy of
// their answers, in the form's language and formality, through the same outbox as the owner's.
import { fill } from "../../src/core/locales/index.ts";
import { ownerText } from "../../src/core/locales/owner-text.ts";
import { pipe } from "../../src/core/piping.ts";
import type { Form } from "../../src/core/schema.ts";
import { escapeHtml, renderMarkdown } from "../../src/lib/markdown.ts";
import { type Email, emailHtml, fillSubject, localAnswerRows } from "./compose-email.ts";

/**
 * Refuses to compose for anyone but the address answered in the field (a row written otherwise,
 * or a definition changed since, sends nothing), then the copy: the author's Markdown with
 * answers piped in as text, and the answers table.
 */
export function respondentEmail(
  form: Form,
  payload: Record<string, unknown>,
  recipients: string[],
  submittedAt: Date,
): Email {
  const config = form.notifications.respondent;
  if (!config) throw new Error("the form no longer sends respondents a copy");
  if (recipients.length !== 1 || payload[config.email_field] !== recipients[0])
    throw new Error("the recipient is not the address answered in the email field");
  const t = ownerText(form.locale, form.settings.formality);
  const subject = fillSubject(
    config.subject ?? fill(t.your_answers, { title: "{form_title}" }),
    form,
    payload,
    submittedAt,
  );
  const intro = fill(t.copy_intro, { title: form.title });
  const rows = localAnswerRows(form, payload);
  const values = { answers: payload };
  const text = [
    config.body ? pipe(config.body, values) : intro,
    "",
    ...rows.map(
      (r) => `${r.question}\n${(r.lines.length ? r.lines : ["—"]).map((l) => `  ${l}`).join("\n")}`,
    ),
    "",
    t.copy_footer,
  ].join("\n");
  // Markdown first, answers after: an answer is text, never markup
  const top = config.body
    ? pipe(renderMarkdown(config.body), values, escapeHtml)
    : `<p>${escapeHtml(intro)}</p>`;
  const cell =
    "padding:8px 10px;border-bottom:1px solid #e5e7eb;vertical-align:top;text-align:left";
  const table = `<table role="presentation" cellpadding="0" cellspacing="0" style="border-collapse:collapse;width:100%;background:#ffffff;border:1px solid #e5e7eb">${rows
    .map(
      (r) =>
        `<tr><th style="${cell};width:40%;font-weight:600">${escapeHtml(r.question)}</th><td style="${cell}">${r.lines.length ? r.lines.map(escapeHtml).join("<br>") : "—"}</td></tr>`,
    )
    .join("")}</table>`;
  const html = emailHtml(subject, `${top}${table}`, { lang: form.locale, footer: t.copy_footer });
  return { subject, text, html };
}
