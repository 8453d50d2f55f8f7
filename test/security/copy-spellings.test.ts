// Fourth review, 2026-11-28: an email answer only has to look like one address, and
// `a <victim@example.org>`, `"b" <victim@example.org>` or `victim@example.org(c)` do. nodemailer
// (and Postmark) read each as victim@example.org, with a name or comment of the stranger's
// choosing in To, while the limit of 3 copies per address and form (SPEC §23 "Respondent copies
// are no relay") counted each spelling as another address: through a real SMTP send, anonymous
// submits got 5 copies into one mailbox. A copy (and a resume link) now goes only to a plain
// mailbox; the response is stored all the same.
//
// Seventh review (2026-11-28, docs/security-review.md): the limit of 3 copies per address and form
// (SPEC §23 "Respondent copies are no relay") counted an address's domain as spelt, while
// nodemailer (punycode.toASCII) reads the ideographic and full-width full stops `。 ． ｡` as
// dots and writes a Unicode domain as its A-label: `victim@mail.example。org`,
// `victim@mail．example.org` and `victim@mail.example｡org` are plain mailboxes, each counted as
// another address, and each delivered to victim@mail.example.org. Anonymous submits got 6 copies
// into one mailbox. The limit now counts the domain as the URL parser (UTS 46) reads it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { copyKey } from "../../functions/mail/respondent-recipients.ts";
import { drainOutbox } from "../../functions/mail/sender.ts";
import { startSmtpFake } from "../fakes/smtp.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const SPELLINGS = [
  "victim@example.org",
  "<victim@example.org>",
  "a<victim@example.org>",
  "Your account is locked <victim@example.org>",
  '"b"<victim@example.org>',
  'x"<victim@example.org>',
  "victim@example.org(c)",
  "victim@example.org.",
  "other@example.net,victim@example.org",
];

const DOMAINS = [
  "victim@mail.example.org",
  "victim@mail.example\u3002org",
  "victim@mail\uff0eexample.org",
  "victim@mail.example\uff61org",
  "victim@mail\uff61example.org",
  "victim@MAIL.example\uff0eORG",
];

describe("the copy limit's address", () => {
  it("is one for every spelling of a domain the mailer sends to as one", () => {
    const key = (a: string) => copyKey(JSON.stringify([a]));
    expect(new Set(DOMAINS.map(key))).toEqual(new Set(["victim@mail.example.org"]));
    expect(key("v+x@b\u00fccher.example")).toBe(key("v@xn--bcher-kva.example"));
    // the local part keeps its case rule and its tag rule
    expect(key("Victim+news@Example.org")).toBe("victim@example.org");
  });
});

describe.each(DB_KINDS)("a respondent's copy goes to a plain mailbox only (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  let smtp: Awaited<ReturnType<typeof startSmtpFake>>;
  beforeAll(async () => {
    smtp = await startSmtpFake();
    s = await startTestServer({
      db: kind,
      env: { SMTP_URL: smtp.url, FORMDOWN_MAIL_FROM: "forms@example.com" },
    });
    api = client(s.url, s.apiKey);
    const made = await api("POST", "/api/forms", {
      body: {
        title: "Signup",
        slug: "signup",
        humanness: false,
        settings: { partial: true },
        notifications: { respondent: { email_field: "mail", subject: "Thanks" } },
        fields: [
          { id: "name", type: "text", label: "Name" },
          { id: "mail", type: "email", label: "Email" },
        ],
      },
    });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
  });
  afterAll(async () => {
    await s?.close();
    await smtp?.close();
  });

  const drain = async () => {
    for (let i = 0; i < 5; i++) if ((await drainOutbox(s.ctx, 200)).sent === 0) return;
  };

  it("sends no copy to an address spelt with a name, comment or list, so the limit holds", async () => {
    for (const mail of SPELLINGS) {
      const res = await api("POST", "/api/forms/signup/submit", {
        key: null,
        body: { fields: { name: "Ann", mail } },
      });
      // a spelling with spaces is no email answer (400); the others are stored, without a copy
      expect([201, 400], mail).toContain(res.status);
    }
    await drain();
    const toVictim = smtp.received.filter((m) => m.to.includes("victim@example.org"));
    expect(toVictim).toHaveLength(1);
    expect(toVictim[0]!.headers.to).toBe("victim@example.org");
  });

  it("sends no resume link to such a spelling either", async () => {
    const before = smtp.received.length;
    for (const mail of SPELLINGS.slice(1)) {
      const res = await api("POST", "/api/forms/signup/partial", {
        key: null,
        body: { fields: { mail }, page: 0 },
      });
      expect(res.status, mail).toBe(200);
    }
    await drain();
    expect(smtp.received.slice(before).map((m) => m.to)).toEqual([]);
  });

  it("sends at most 3 copies whatever full stops the domain is spelt with", async () => {
    for (const mail of DOMAINS) {
      const res = await api("POST", "/api/forms/signup/submit", {
        key: null,
        body: { fields: { mail } },
      });
      expect(res.status, mail).toBe(201);
    }
    await drain();
    const toVictim = smtp.received.filter((m) => m.to.includes("victim@mail.example.org"));
    expect(toVictim).toHaveLength(3);
  });
});
