import type { Hono } from "hono";
import type { Env } from "../auth.ts";
import type { AppContext } from "../context.ts";
import { body, json, query, REFUSED } from "../contracts/common.ts";
import { mailTestBody, mailTested, outbox, outboxQuery } from "../contracts/responses.ts";
import { sendTestMail } from "../mail/mail-test.ts";
import { listOutbox } from "../mail/outbox.ts";
import { keyed } from "./operation.ts";

export function outboxRoutes(app: Hono<Env>, ctx: AppContext): void {
  const op = keyed(ctx);
  app.get(
    "/api/outbox",
    op("listOutbox", "Emails due or sent for your forms, newest first", {
      200: json(outbox),
      ...REFUSED,
    }),
    query(outboxQuery),
    async (c) => {
      const { limit, offset } = c.req.valid("query");
      return c.json(await listOutbox(ctx, c.get("account"), limit, offset));
    },
  );
  app.post(
    "/api/outbox/test",
    op(
      "sendTestMail",
      "Send one test message through the server's mailer (SMTP or Postmark) at once",
      { 200: json(mailTested), ...REFUSED },
    ),
    body(mailTestBody),
    async (c) => c.json(await sendTestMail(ctx, c.get("account"), c.req.valid("json").to)),
  );
}
