import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface SentEmail {
  From: string;
  To: string;
  Subject: string;
  TextBody: string;
  HtmlBody: string;
  token: string;
}

/**
 * A loopback fake of Postmark's `POST /email` (X-Postmark-Server-Token, PascalCase JSON). It
 * records what arrives and can be told to fail (as Postmark's 500, or a 422 ErrorCode).
 */
export async function startPostmarkFake() {
  const sent: SentEmail[] = [];
  let failing = false;
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const reply = (status: number, json: object) => {
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(json));
      };
      if (req.method !== "POST" || req.url !== "/email")
        return reply(404, { ErrorCode: 404, Message: "Not found" });
      const token = String(req.headers["x-postmark-server-token"] ?? "");
      if (!token)
        return reply(401, {
          ErrorCode: 10,
          Message: "No Account or Server API tokens were supplied",
        });
      if (failing) return reply(500, { ErrorCode: 500, Message: "Internal server error" });
      const email = JSON.parse(body) as Omit<SentEmail, "token">;
      if (!email.To || !email.From)
        return reply(422, { ErrorCode: 300, Message: "Invalid email request" });
      sent.push({ ...email, token });
      reply(200, {
        To: email.To,
        SubmittedAt: new Date().toISOString(),
        MessageID: crypto.randomUUID(),
        ErrorCode: 0,
        Message: "OK",
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    sent,
    fail(on: boolean) {
      failing = on;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
