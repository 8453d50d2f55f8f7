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

/** Copies one address may get from one form in any 24 hours (SPEC §23): more are dropped. */
export const COPY_LIMIT = 3;

/**
 * The address of `["address"]` as the limit counts it: lower case, without a `+tag` (one mailbox
 * under many spellings is one address).
 */
export function copyKey(recipients: string): string {
  const [address] = JSON.parse(recipients) as [string];
  const at = address.lastIndexOf("@");
  const local = address.slice(0, at).split("+")[0];
  return `${local}${address.slice(at)}`.toLowerCase();
}
