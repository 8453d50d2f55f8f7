import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainOutbox } from "../../functions/mail/sender.ts";
import { startPostmarkFake } from "../fakes/postmark.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const form = (slug: string, strategy: object, subject?: string) => ({
  title: `Signup <${slug}>`,
  slug,
  humanness: false,
  notifications: { email: ["owner@example.com"], ...(subject ? { subject } : {}), strategy },
  fields: [{ id: "name", type: "text", label: "Name" }],
});

/**
 * Drains until nothing is due, retries included: their backoff (at most 160 s this early) is cut
 * to now. An email another drain has claimed carries the 5-minute lease and is left alone, or two
 * drains at once would each send it.
 */
async function drainAll(s: TestServer) {
  for (let i = 0; i < 20; i++) {
    await s.ctx.db.query(
      "update outbox set next_attempt_at = now() where status = 'pending' and next_attempt_at < now() + interval '4 minutes'",
    );
    const { sent, failed } = await drainOutbox(s.ctx, 200);
    if (sent + failed === 0) return;
  }
}

describe.each(DB_KINDS)("email notifications through Postmark (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  let postmark: Awaited<ReturnType<typeof startPostmarkFake>>;
  beforeAll(async () => {
    postmark = await startPostmarkFake();
    s = await startTestServer({
      db: kind,
      env: {
        POSTMARK_SERVER_TOKEN: "pm-test-token",
        POSTMARK_API_URL: postmark.url,
        FORMDOWN_MAIL_FROM: "forms@example.com",
      },
    });
    api = client(s.url, s.apiKey);
  });
  afterAll(async () => {
    await s?.close();
    await postmark?.close();
  });

  const submit = (slug: string, name: string) =>
    api("POST", `/api/forms/${slug}/submit`, { key: null, body: { fields: { name } } });

  it("emails responses 1..immediate_count and each absolute milestone once, with the subject filled", async () => {
    await api("POST", "/api/forms", {
      body: form(
        "signup",
        { immediate_count: 2, milestones: { absolute: [4] } },
        "New: {field:name}\non {form_title} ({date})",
      ),
    });
    for (const name of ["Ann", "Bob", "Cy", "Dee", "Eve"])
      expect((await submit("signup", name)).status).toBe(201);
    await drainAll(s);
    const mine = postmark.sent.filter((e) => e.Subject.includes("signup"));
    const today = new Date().toISOString().slice(0, 10);
    expect(mine.map((e) => e.Subject)).toEqual([
      `New: Ann on Signup <signup> (${today})`,
      `New: Bob on Signup <signup> (${today})`,
      "Signup <signup> reached 4 responses",
    ]);
    expect(mine[0]).toMatchObject({
      From: "forms@example.com",
      To: "owner@example.com",
      token: "pm-test-token",
    });
    expect(mine[0]!.TextBody).toContain("Name\n  Ann");
    expect(mine[0]!.HtmlBody).toContain("Signup &#60;signup&#62;");
    // Postmark gets the HTML part beside the text; its links open in a browser, signed
    const link = /View it: (\S+)/.exec(mine[0]!.TextBody)![1]!;
    expect(link).toMatch(/\/view\/responses\/[0-9a-f-]+\?exp=\d+&sig=[\w-]+$/);
    expect(mine[0]!.HtmlBody).toContain(`href="${link.replaceAll("&", "&#38;")}"`);
    const outbox = (await api("GET", "/api/outbox?limit=10")).body;
    expect(outbox.total).toBe(3);
    expect(outbox.emails.every((e: { status: string }) => e.status === "sent")).toBe(true);
    // a mail provider: nothing said about keeping emails
    const health = await api("GET", "/api/health?detail=1");
    expect(health.body.warnings.join("\n")).not.toContain("kept");
  });

  it("sends exactly one milestone email when 64 concurrent submits cross it (percentage of target)", async () => {
    await api("POST", "/api/forms", {
      body: form("rush", { immediate_count: 0, target: 100, milestones: { percentage: [50] } }),
    });
    const results = await Promise.all(
      Array.from({ length: 64 }, (_, i) => submit("rush", `n${i}`)),
    );
    expect(results.every((r) => r.status === 201)).toBe(true);
    await Promise.all([drainAll(s), drainAll(s)]);
    expect(
      postmark.sent.filter((e) => e.Subject === "Signup <rush> reached 50 responses"),
    ).toHaveLength(1);
  });

  it("keeps accepting submissions while Postmark is down and delivers each email once after", async () => {
    await api("POST", "/api/forms", { body: form("outage", { immediate_count: 5 }) });
    postmark.fail(true);
    for (const name of ["a", "b", "c"]) expect((await submit("outage", name)).status).toBe(201);
    await drainOutbox(s.ctx, 200);
    const pending = (await api("GET", "/api/outbox?limit=50")).body.emails.filter(
      (e: { to: string[]; status: string; subject: string }) => e.subject?.includes("outage"),
    );
    expect(pending).toHaveLength(3);
    expect(
      pending.every(
        (e: { status: string; attempts: number; last_error: string }) =>
          e.status === "pending" && e.attempts === 1 && e.last_error,
      ),
    ).toBe(true);
    postmark.fail(false);
    await drainAll(s);
    await drainAll(s);
    const delivered = postmark.sent.filter((e) => e.Subject.includes("outage"));
    expect(delivered.map((e) => e.TextBody.split("\n")[2]).sort()).toEqual([
      "Name",
      "Name",
      "Name",
    ]);
    expect(delivered).toHaveLength(3);
  });
});

describe("the embedded outbox", () => {
  it("keeps composed emails in the database, readable with GET /api/outbox", async () => {
    const s = await startTestServer();
    try {
      const api = client(s.url, s.apiKey);
      await api("POST", "/api/forms", { body: form("embedded", {}) });
      await api("POST", "/api/forms/embedded/submit", {
        key: null,
        body: { fields: { name: "Zed" } },
      });
      await drainOutbox(s.ctx);
      const { emails } = (await api("GET", "/api/outbox")).body;
      expect(emails).toHaveLength(1);
      expect(emails[0]).toMatchObject({
        form: "embedded",
        kind: "response",
        to: ["owner@example.com"],
        // nothing left the machine: kept, never called sent
        status: "kept",
        subject: "New response to Signup <embedded>",
      });
      expect(emails[0].text).toContain("Zed");
      // and doctor says so, in those words
      const health = await api("GET", "/api/health?detail=1");
      expect(health.body.warnings.join("\n")).toContain("emails are kept, not sent");
      expect((await api("GET", "/api/outbox?limit=500")).body.code).toBe("invalid_param");
    } finally {
      await s.close();
    }
  });
});
