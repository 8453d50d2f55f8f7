import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainOutbox } from "../../functions/mail/sender.ts";
import { startSmtpFake } from "../fakes/smtp.ts";
import { client } from "../helpers/api.ts";
import { runFormdown } from "../helpers/cli.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe.each(DB_KINDS)("email through SMTP_URL (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  let smtp: Awaited<ReturnType<typeof startSmtpFake>>;
  beforeAll(async () => {
    smtp = await startSmtpFake();
    s = await startTestServer({
      db: kind,
      env: { SMTP_URL: smtp.url, FORMDOWN_MAIL_FROM: "Forms <forms@example.com>" },
    });
    api = client(s.url, s.apiKey);
    await api("POST", "/api/forms", {
      body: {
        title: "Signup",
        slug: "signup",
        humanness: false,
        notifications: { email: ["owner@example.com"], strategy: { immediate_count: 5 } },
        fields: [{ id: "name", type: "text", label: "Name" }],
      },
    });
  });
  afterAll(async () => {
    await s?.close();
    await smtp?.close();
  });

  const submit = (name: string) =>
    api("POST", "/api/forms/signup/submit", { key: null, body: { fields: { name } } });
  const outbox = () =>
    s.ctx.db.query<{ status: string; attempts: number; last_error: string | null }>(
      "select status, attempts, last_error from outbox order by created_at",
    );

  it("delivers a response's email with From, To, Subject and text and HTML parts, and marks it sent", async () => {
    expect((await submit("Ann")).status).toBe(201);
    expect(await drainOutbox(s.ctx, 10)).toEqual({ sent: 1, failed: 0 });
    expect(smtp.received).toHaveLength(1);
    const mail = smtp.received[0]!;
    expect(mail.to).toEqual(["owner@example.com"]);
    expect(mail.from).toBe("forms@example.com");
    expect(mail.headers.from).toBe("Forms <forms@example.com>");
    expect(mail.headers.to).toBe("owner@example.com");
    expect(mail.headers.subject).toContain("Signup");
    expect(mail.headers["content-type"]).toMatch(/^multipart\/alternative/);
    expect(mail.raw).toMatch(/Content-Type: text\/plain/);
    expect(mail.raw).toMatch(/Content-Type: text\/html/);
    expect(mail.raw).toContain("Ann");
    expect((await outbox())[0]).toMatchObject({ status: "sent", attempts: 1, last_error: null });
  });

  it("leaves the email due when the SMTP server is down, and sends it once it is back", async () => {
    await smtp.stop();
    expect((await submit("Bob")).status).toBe(201);
    expect(await drainOutbox(s.ctx, 10)).toEqual({ sent: 0, failed: 1 });
    const [, due] = await outbox();
    expect(due).toMatchObject({ status: "pending", attempts: 1 });
    expect(due!.last_error).toMatch(/ECONNREFUSED|connect/i);
    await smtp.start();
    await s.ctx.db.query("update outbox set next_attempt_at = now() where status = 'pending'");
    expect(await drainOutbox(s.ctx, 10)).toEqual({ sent: 1, failed: 0 });
    expect(smtp.received.map((m) => m.raw.includes("Bob"))).toEqual([false, true]);
    expect((await outbox())[1]).toMatchObject({ status: "sent", attempts: 2 });
  });

  it("formdown doctor --send-test sends one message through SMTP and says so", async () => {
    const run = await runFormdown(["doctor", "--send-test", "me@example.com"], {
      env: { FORMDOWN_URL: s.url, FORMDOWN_API_KEY: s.apiKey, HOME: s.dataDir },
    });
    expect(run.stdout).toContain("✓ test email: sent to me@example.com through SMTP");
    const last = smtp.received.at(-1)!;
    expect(last.to).toEqual(["me@example.com"]);
    expect(last.headers.subject).toBe("Formdown test message");
    const bad = await api("POST", "/api/outbox/test", { body: { to: "not an address" } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBeTruthy();
  });
});

describe("a server without a mailer", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => s?.close());

  it("answers the test message with via outbox: kept, not sent", async () => {
    const res = await client(s.url, s.apiKey)("POST", "/api/outbox/test", {
      body: { to: "me@example.com" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ sent: false, via: "outbox" });
    expect(res.body.error).toContain("kept in the outbox, not sent");
  });
});
