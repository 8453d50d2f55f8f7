// The confirmation email to the respondent (SPEC §21, `notifications.respondent`): a copy of
// their answers in the language of the page they answered (SPEC §25: the translation's title,
// labels, options, subject and body) and the form's formality, through the same outbox as the
// owner's. Its text part is plain text; its HTML keeps the line breaks of an answer.
import { fill } from "../../src/core/locales/index.ts";
import { ownerText } from "../../src/core/locales/owner-text.ts";
import { markdownText } from "../../src/core/markdown-text.ts";
import { pipe } from "../../src/core/piping.ts";
import type { Form } from "../../src/core/schema.ts";
import {
  choiceLabel,
  inLanguage,
  type TranslatedForm,
  type Translations,
} from "../../src/core/translation.ts";
import { escapeHtml, renderMarkdown } from "../../src/lib/markdown.ts";
import {
  answersTable,
  type Email,
  emailHtml,
  fillSubject,
  localAnswerRows,
  textRow,
} from "./compose-email.ts";
import { plainMailbox } from "./respondent-recipients.ts";

/**
 * Refuses to compose for anyone but the address answered in the field (a row written otherwise,
 * or a definition changed since, sends nothing), then the copy: the author's Markdown with
 * answers piped in as text, and the answers table.
 */
export function respondentEmail(
  own: Form,
  payload: Record<string, unknown>,
  recipients: string[],
  submittedAt: Date,
  /** The language the respondent read (the response's `lang`) and the form's translations. */
  language: { lang?: string | null; translations?: Translations | null } = {},
  /** The response's variables (SPEC §24): `{var:<id>}` in the subject and the body. */
  variables: Record<string, unknown> = {},
): Email {
  const mail = own.notifications.respondent;
  if (!mail) throw new Error("the form no longer sends respondents a copy");
  // (a row written before the answer had to be a plain mailbox is refused too)
  if (
    recipients.length !== 1 ||
    payload[mail.email_field] !== recipients[0] ||
    plainMailbox(recipients[0]) === null
  )
    throw new Error("the recipient is not the address answered in the email field");
  const lang = language.lang ?? own.locale;
  const { form, choices } = inLanguage(own, lang, language.translations);
  const config = form.notifications.respondent ?? mail;
  const t = ownerText(form.locale, form.settings.formality);
  // options as the respondent read them, in the table and wherever an answer is piped
  const shown = shownAnswers(form, payload, choices);
  const subject = fillSubject(
    config.subject ?? fill(t.your_answers, { title: "{form_title}" }),
    form,
    shown,
    submittedAt,
    variables,
  );
  const intro = fill(t.copy_intro, { title: form.title });
  const rows = localAnswerRows(form, shown);
  const values = { answers: shown, variables };
  const text = [
    config.body ? pipe(markdownText(config.body), values) : intro,
    "",
    ...rows.map(textRow),
    "",
    t.copy_footer,
  ].join("\n");
  // Markdown first, answers after: an answer is text, never markup
  const top = config.body
    ? pipe(renderMarkdown(config.body), values, escapeHtml)
    : `<p>${escapeHtml(intro)}</p>`;
  const html = emailHtml(subject, `${top}${answersTable(rows, "—")}`, {
    lang: form.locale,
    footer: t.copy_footer,
  });
  return { subject, text, html };
}

/** The answers with each choice as the respondent's language shows it. */
function shownAnswers(
  form: Form,
  payload: Record<string, unknown>,
  choices: TranslatedForm["choices"],
): Record<string, unknown> {
  const out = { ...payload };
  for (const field of form.fields) {
    if (!choices[field.id] || !Object.hasOwn(payload, field.id)) continue;
    const show = (v: unknown) => (typeof v === "string" ? choiceLabel(choices, field.id, v) : v);
    const v = payload[field.id];
    out[field.id] = Array.isArray(v)
      ? v.map(show)
      : v && typeof v === "object"
        ? Object.fromEntries(Object.entries(v).map(([row, c]) => [row, show(c)]))
        : show(v);
  }
  return out;
}
