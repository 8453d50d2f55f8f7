import { createTransport } from "nodemailer";
import type { Config } from "../config.ts";
import type { Mailer } from "../context.ts";

/**
 * Any SMTP server through nodemailer (SPEC §26): `SMTP_URL` such as
 * `smtps://user:pass@smtp.example.com:465` or `smtp://localhost:25`. A server that does not
 * answer fails the send within the timeouts, so the outbox keeps the email due and retries it.
 */
export function smtpMailer(config: Config): Mailer {
  // said at start-up, not at the first email: a typo here would otherwise only fill the outbox
  if (!/^smtps?:\/\/[^/]/.test(config.smtpUrl ?? ""))
    throw new Error(
      "SMTP_URL must look like smtp://host:25 or smtps://user:password@host:465 (see the README).",
    );
  const transport = createTransport({
    url: config.smtpUrl!,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return {
    kind: "smtp",
    async send(message) {
      const info = await transport.sendMail({
        from: config.mailFrom,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
      });
      return { id: String(info.messageId ?? "") };
    },
  };
}
