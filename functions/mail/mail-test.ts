import type { AppContext } from "../context.ts";
import type { Account } from "../services/accounts.ts";
import { hit } from "../services/rate-limit.ts";

export interface MailTestResult {
  sent: boolean;
  /** What carries mail on this server; `outbox` when nothing does (the mail is kept, not sent). */
  via: "postmark" | "smtp" | "outbox";
  id?: string;
  error?: string;
}

/**
 * `formdown doctor --send-test <address>` (SPEC §26): one message through the server's mailer,
 * sent at once (not queued), so the answer says whether the SMTP server or Postmark took it.
 * Three a minute per account: an admin key may not turn this into a relay.
 */
export async function sendTestMail(
  ctx: AppContext,
  account: Account,
  to: string,
): Promise<MailTestResult> {
  hit(ctx, `mail-test:${account.id}`, 3);
  const mailer = ctx.mailer;
  if (!mailer)
    return {
      sent: false,
      via: "outbox",
      error:
        "No mailer is configured: email is kept in the outbox, not sent. Set SMTP_URL (any SMTP server) or POSTMARK_SERVER_TOKEN.",
    };
  const via = mailer.kind ?? "smtp";
  const text = `This is a test message from your Formdown server, sent by @${account.handler} with formdown doctor. If you can read it, email from your forms will reach you.`;
  try {
    const { id } = await mailer.send({
      to: [to],
      subject: "Formdown test message",
      text,
      html: `<p>${text}</p>`,
    });
    return { sent: true, via, id };
  } catch (error) {
    return { sent: false, via, error: String((error as Error).message ?? error).slice(0, 300) };
  }
}
