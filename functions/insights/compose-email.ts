import { cellText } from "../../src/core/csv.ts";
import type { Form } from "../../src/core/schema.ts";
import { escapeHtml } from "../../src/lib/markdown.ts";

export interface Email {
  subject: string;
  text: string;
  html: string;
}

/** Fills {form_title}, {field:<id>} and {date}; line breaks are stripped (no header injection). */
export function fillSubject(
  template: string,
  form: Form,
  payload: Record<string, unknown>,
  date: Date,
): string {
  return template
    .replace(/\{form_title\}/g, form.title)
    .replace(/\{date\}/g, date.toISOString().slice(0, 10))
    .replace(/\{field:([a-z][a-z0-9_]*)\}/g, (_m, id: string) => cellText(payload[id]))
    .replace(/[\r\n]+/g, " ")
    .trim()
    .slice(0, 250);
}

export function responseEmail(
  form: Form,
  payload: Record<string, unknown>,
  submittedAt: Date,
  link: string,
): Email {
  const subject = fillSubject(
    form.notifications.subject ?? "New response to {form_title}",
    form,
    payload,
    submittedAt,
  );
  const rows = form.fields
    .filter((f) => f.type !== "statement")
    .map(
      (f) =>
        [f.label ?? f.id, payload[f.id] === undefined ? "—" : cellText(payload[f.id])] as const,
    );
  const text = [
    `New response to ${form.title} (${submittedAt.toISOString()})`,
    "",
    ...rows.map(([q, a]) => `${q}\n  ${a}`),
    "",
    `View it: ${link}`,
  ].join("\n");
  const html = `<h2>New response to ${escapeHtml(form.title)}</h2><table cellpadding="6">${rows
    .map(
      ([q, a]) =>
        `<tr><th align="left" valign="top">${escapeHtml(q)}</th><td>${escapeHtml(a)}</td></tr>`,
    )
    .join("")}</table><p><a href="${escapeHtml(link)}">View the response</a></p>`;
  return { subject, text, html };
}

export function milestoneEmail(form: Form, count: number, link: string): Email {
  const target = form.notifications.strategy.target;
  const of = target ? ` of your target of ${target}` : "";
  const subject = fillSubject(`${form.title} reached ${count} responses`, form, {}, new Date());
  const text = `${form.title} has ${count} responses${of}.\n\nSee them: ${link}`;
  const html = `<p><strong>${escapeHtml(form.title)}</strong> has ${count} responses${escapeHtml(of)}.</p><p><a href="${escapeHtml(link)}">See them</a></p>`;
  return { subject, text, html };
}
