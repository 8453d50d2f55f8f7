// The resume link's email (SPEC §25): in the language of the page the respondent saved from (the
// translation's title, the form's formality), a line, the link and a button; no answers, so no
// text of the respondent's travels in it (SPEC §23).
import { fill } from "../../src/core/locales/index.ts";
import { ownerText } from "../../src/core/locales/owner-text.ts";
import type { Form } from "../../src/core/schema.ts";
import { inLanguage, type Translations } from "../../src/core/translation.ts";
import { escapeHtml } from "../../src/lib/markdown.ts";
import type { AppContext } from "../context.ts";
import { publicUrl } from "../services/form-view.ts";
import { buttons, type Email, emailHtml } from "./compose-email.ts";

/** What the link needs of the form and the partial. */
export interface ResumeTarget {
  handler: string;
  slug: string;
  locale: string;
  access_mode: string;
  access_token: string | null;
  token: string;
  lang: string | null;
  invite: string | null;
}

/**
 * The page in the respondent's language (`/@handler/slug/de`), with what that page needs to open
 * and continue: a link-mode form's token, an invite-only form's personal link, the resume token.
 */
export function resumeUrl(ctx: AppContext, t: ResumeTarget): string {
  const page = `${publicUrl(ctx, t)}${t.lang && t.lang !== t.locale ? `/${t.lang}` : ""}`;
  const query = new URLSearchParams();
  if (t.access_mode === "link" && t.access_token) query.set("access", t.access_token);
  if (t.access_mode === "invite" && t.invite) query.set("invite", t.invite);
  query.set("resume", t.token);
  return `${page}?${query}`;
}

export function resumeEmail(
  own: Form,
  url: string,
  language: { lang?: string | null; translations?: Translations | null } = {},
): Email {
  const { form } = inLanguage(own, language.lang ?? own.locale, language.translations);
  const t = ownerText(form.locale, form.settings.formality);
  const subject = fill(t.resume_subject, { title: form.title }).replace(/[\r\n]+/g, " ");
  const intro = fill(t.resume_intro, { title: form.title });
  const text = [intro, "", url, "", t.copy_footer].join("\n");
  const html = emailHtml(
    subject,
    `<p>${escapeHtml(intro)}</p>${buttons([[t.resume_button, url]])}<p style="font-size:13px;color:#4b5563;word-break:break-all">${escapeHtml(url)}</p>`,
    { lang: form.locale, footer: t.copy_footer },
  );
  return { subject, text, html };
}
