// SPEC §23 "Respondent copies are no relay" (issue 41 item 6): 20 anonymous submits naming a
// victim's address and a phishing text as the name got 20 emails to the victim with that text as
// the subject. Now at most 3 copies go to one address per form in any 24 hours (the rest are
// dropped and counted in the stats), a piped answer in a subject is plain text of at most 80
// characters without links, and owners list at most 50 addresses and 1000 immediate emails.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainOutbox } from "../../functions/mail/sender.ts";
import { startPostmarkFake } from "../fakes/postmark.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const PHISH =
  "URGENT: your bank account is locked, confirm your identity within 24 hours at http://evil.example/login or www.evil.example";

const form = (slug: string, extra: object = {}) => ({
  title: "Signup",
  slug,
  humanness: false,
  notifications: {
    email: ["owner@example.com"],
    strategy: { immediate_count: 0 },
    respondent: { email_field: "mail", subject: "{field:name}" },
  },
  fields: [
    { id: "name", type: "text", label: "Name" },
    { id: "mail", type: "email", label: "Email" },
  ],
  ...extra,
});

describe.each(DB_KINDS)("respondent copies are no relay (%s)", (kind) => {
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
    for (const slug of ["signup", "other"]) {
      const created = await api("POST", "/api/forms", { body: form(slug) });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    }
  });
  afterAll(async () => {
    await s?.close();
    await postmark?.close();
  });

  const submit = (slug: string, mail: string, name = PHISH) =>
    api("POST", `/api/forms/${slug}/submit`, { key: null, body: { fields: { name, mail } } });
  const drain = async () => {
    for (let i = 0; i < 5; i++) if ((await drainOutbox(s.ctx, 200)).sent === 0) return;
  };
  const to = (address: string) =>
    postmark.sent.filter((e) => e.To.toLowerCase() === address.toLowerCase());

  it("sends one address at most 3 copies from a form, however many submits name it", async () => {
    // at once, and under other spellings of the same mailbox
    const spellings = ["victim@example.org", "Victim@Example.org", "victim+1@example.org"];
    const all = await Promise.all(
      Array.from({ length: 20 }, (_, i) => submit("signup", spellings[i % 3]!)),
    );
    expect(all.map((r) => r.status)).toEqual(Array(20).fill(201));
    await drain();
    const copies = postmark.sent.filter((e) => /victim/i.test(e.To));
    expect(copies).toHaveLength(3);
    const stats = await api("GET", "/api/forms/signup/stats");
    expect(stats.body.respondent_copies_dropped).toBe(17);
    // every response is stored: only the copies are dropped
    expect(stats.body.responses).toBe(20);
  });

  it("writes the answer into the subject as plain text, without links, cut at 80", async () => {
    const subjects = postmark.sent.filter((e) => /victim/i.test(e.To)).map((e) => e.Subject);
    for (const subject of subjects) {
      expect(subject).not.toMatch(/https?:|www\.|evil\.example/i);
      expect([...subject].length).toBeLessThanOrEqual(80);
      expect(subject.startsWith("URGENT: your bank account is locked")).toBe(true);
    }
  });

  it("counts per address and per form", async () => {
    expect((await submit("signup", "ada@example.com", "Ada")).status).toBe(201);
    expect((await submit("other", "victim@example.org", "Hi")).status).toBe(201);
    await drain();
    expect(to("ada@example.com").map((e) => e.Subject)).toEqual(["Ada"]);
    expect(postmark.sent.filter((e) => /victim/i.test(e.To))).toHaveLength(4);
  });

  it("sends again once the address's copies are more than 24 hours old", async () => {
    await s.ctx.db.query(
      "update respondent_copies set sent = array(select t - interval '25 hours' from unnest(sent) t)",
    );
    expect((await submit("signup", "victim@example.org", "Again")).status).toBe(201);
    await drain();
    expect(to("victim@example.org").map((e) => e.Subject)).toContain("Again");
    const rows = await s.ctx.db.query<{ address: string }>("select address from respondent_copies");
    // the address itself is not kept: its hash is
    expect(JSON.stringify(rows)).not.toMatch(/@/);
  });

  it("refuses more than 50 owner addresses and an immediate_count over 1000", async () => {
    const many = Array.from({ length: 51 }, (_, i) => `o${i}@example.com`);
    const list = await api("POST", "/api/forms", {
      body: { ...form("many"), notifications: { email: many } },
    });
    expect(list.status).toBe(400);
    expect(JSON.stringify(list.body.details)).toContain("notifications.email");
    const burst = await api("POST", "/api/forms", {
      body: { ...form("burst"), notifications: { strategy: { immediate_count: 1_000_000 } } },
    });
    expect(burst.status).toBe(400);
    expect(JSON.stringify(burst.body.details)).toContain("immediate_count");
    const fifty = await api("POST", "/api/forms", {
      body: {
        ...form("fifty"),
        notifications: { email: many.slice(0, 50), strategy: { immediate_count: 1000 } },
      },
    });
    expect(fifty.status, JSON.stringify(fifty.body)).toBe(201);
  });
});
