import type { Form } from "../../src/core/schema.ts";

/**
 * The recipients the submit writes (`["address"]` as JSON), or null: only the answer of the email
 * field the form names, and only when there is one. The schema makes that field an email field,
 * so the answer was checked to be one address. Apart from the email itself (respondent-email.ts),
 * so a submit does not load what composes it: the locales, the answers table, Markdown.
 */
export function respondentRecipients(form: Form, payload: Record<string, unknown>): string | null {
  const field = form.notifications.respondent?.email_field;
  const address = field === undefined ? undefined : payload[field];
  return typeof address === "string" && address.includes("@") ? JSON.stringify([address]) : null;
}
