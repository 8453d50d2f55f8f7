// A personal link's email (SPEC §25): the form's title and its single-use link, nothing else.
import type { Form } from "../../src/core/schema.ts";
import { escapeHtml } from "../../src/lib/markdown.ts";
import { type Email, emailHtml } from "./compose-email.ts";

const FOOTER = "Sent by Formdown for the form's owner; the link answers the form once.";

export function inviteEmail(form: Form, url: string): Email {
  const subject = `You are invited: ${form.title}`;
  const line = "This link is yours: it can be answered once.";
  const text = [`${form.title}`, "", line, "", url].join("\n");
  const body = `<p>${escapeHtml(line)}</p><p><a href="${escapeHtml(url)}">${escapeHtml(url)}</a></p>`;
  return { subject, text, html: emailHtml(subject, body, { lang: form.locale, footer: FOOTER }) };
}
