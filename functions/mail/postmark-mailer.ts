import { ServerClient } from "postmark";
import type { Config } from "../config.ts";
import type { Mailer } from "../context.ts";

/** Postmark through its official client; POSTMARK_API_URL points it at a test fake. */
export function postmarkMailer(config: Config): Mailer {
  const url = config.postmarkApiUrl ? new URL(config.postmarkApiUrl) : null;
  const client = new ServerClient(config.postmarkToken!, {
    ...(url ? { useHttps: url.protocol === "https:", requestHost: url.host } : {}),
    timeout: 10,
  });
  return {
    kind: "postmark",
    async send(message) {
      const result = await client.sendEmail({
        From: config.mailFrom,
        To: message.to.join(", "),
        Subject: message.subject,
        TextBody: message.text,
        HtmlBody: message.html,
        MessageStream: "outbound",
        Tag: "formdown",
      });
      return { id: result.MessageID };
    },
  };
}
