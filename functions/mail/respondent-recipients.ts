import type { Form } from "../../src/core/schema.ts";

/** What a mailbox's parts may not hold: what a mailer reads as a name, comment, group or list. */
const PLAIN =
  /^[^\s\p{Cc}@<>()[\]\\,;:"]+@[^\s\p{Cc}@<>()[\]\\,;:"]+\.[^\s\p{Cc}@<>()[\]\\,;:".]+$/u;

/**
 * A respondent's answer as the address a copy or resume link goes to, or null unless it is a
 * plain mailbox. An email answer only has to look like one address (validate-answers.ts), and
 * `a <victim@example.org>`, `"b" <victim@…>` or `victim@…(c)` do; nodemailer and Postmark read
 * each as victim@example.org with a name or comment of the stranger's choosing, while the limit
 * of copies per address (copyKey) counted each spelling as another address.
 */
export function plainMailbox(address: unknown): string | null {
  return typeof address === "string" && address.length <= 254 && PLAIN.test(address)
    ? address
    : null;
}

/**
 * The recipients the submit writes (`["address"]` as JSON), or null: only the answer of the email
 * field the form names, and only when it is a plain mailbox (plainMailbox). Apart from the email
 * itself (respondent-email.ts), so a submit does not load what composes it: the locales, the
 * answers table, Markdown.
 */
export function respondentRecipients(form: Form, payload: Record<string, unknown>): string | null {
  const field = form.notifications.respondent?.email_field;
  const address = plainMailbox(field === undefined ? undefined : payload[field]);
  return address === null ? null : JSON.stringify([address]);
}

/** Copies one address may get from one form in any 24 hours (SPEC §23): more are dropped. */
export const COPY_LIMIT = 3;

/**
 * The address of `["address"]` as the limit counts it: lower case, without a `+tag`, and the
 * domain as the mailer sends to it (one mailbox under many spellings is one address). nodemailer
 * reads `。 ． ｡` as dots and writes a Unicode domain as its A-label, so the domain is read as
 * the URL parser reads a host (UTS 46): `victim@mail.example。org` is victim@mail.example.org.
 */
export function copyKey(recipients: string): string {
  const [address] = JSON.parse(recipients) as [string];
  const at = address.lastIndexOf("@");
  const local = address.slice(0, at).split("+")[0]!.normalize("NFC");
  return `${local}@${asciiDomain(address.slice(at + 1))}`.toLowerCase();
}

/** The domain as a host name (A-labels, dots mapped, lower case); as written if it is none. */
function asciiDomain(domain: string): string {
  try {
    return new URL(`http://${domain}/`).hostname;
  } catch {
    return domain;
  }
}
