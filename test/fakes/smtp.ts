import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export interface SmtpMessage {
  from: string;
  to: string[];
  /** The message as received: headers, a blank line, the body. */
  raw: string;
  /** The top-level headers, lower-cased names, unfolded. */
  headers: Record<string, string>;
}

/**
 * A local SMTP stand-in (smtp-server, from the nodemailer project) on loopback: no TLS, no
 * authentication, every message kept. `stop()` closes it and `start()` listens again on the same
 * port (a server that was down and is back).
 */
export async function startSmtpFake() {
  const received: SmtpMessage[] = [];
  let port = 0;
  const make = () =>
    new SMTPServer({
      disabledCommands: ["STARTTLS", "AUTH"],
      authOptional: true,
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (c: Buffer) => chunks.push(c));
        stream.on("end", () => {
          const raw = Buffer.concat(chunks).toString("utf8");
          const head = raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, " ");
          const headers: Record<string, string> = {};
          for (const line of head.split(/\r?\n/)) {
            const at = line.indexOf(":");
            if (at > 0) headers[line.slice(0, at).toLowerCase()] = line.slice(at + 1).trim();
          }
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
            to: session.envelope.rcptTo.map((r) => r.address),
            raw,
            headers,
          });
          callback();
        });
      },
    });
  let server = make();
  const listen = () =>
    new Promise<void>((resolve, reject) => {
      server.server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        port = (server.server.address() as AddressInfo).port;
        resolve();
      });
    });
  await listen();
  return {
    received,
    get url() {
      return `smtp://127.0.0.1:${port}`;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    async start() {
      server = make();
      await listen();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
