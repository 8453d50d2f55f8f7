// SPEC §21: a confirmation email to the respondent, through the outbox and Postmark, once per
// response, only to the address answered in the named email field; owner emails in the form's
// language.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainOutbox } from "../../functions/mail/sender.ts";
import { startPostmarkFake } from "../fakes/postmark.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const form = (slug: string, respondent: object, extra: object = {}) => ({
  title: `Anmeldung ${slug}`,
  slug,
  humanness: false,
  locale: "de",
  settings: { formality: "informal" },
  notifications: { email: ["owner@example.com"], respondent },
  fields: [
    { id: "vorname", type: "text", label: "Vorname", required: true },
    { id: "mail", type: "email", label: "E-Mail" },
    { id: "kommst", type: "yes_no", label: "Kommst du?" },
  ],
  ...extra,
});

describe.each(DB_KINDS)("the respondent's confirmation email (%s)", (kind) => {
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

  const submit = (slug: string, fields: object, key?: string) =>
    api("POST", `/api/forms/${slug}/submit`, {
      key: null,
      body: { fields },
      ...(key ? { headers: { "idempotency-key": key } } : {}),
    });
  const drain = async () => {
    for (let i = 0; i < 5; i++) if ((await drainOutbox(s.ctx, 200)).sent === 0) return;
  };
  const to = (address: string) => postmark.sent.filter((e) => e.To === address);

  it("sends a copy of the answers to the address answered, once, in the form's language", async () => {
    const created = await api("POST", "/api/forms", {
      body: form("fest", {
        email_field: "mail",
        body: "Hallo **{field:vorname}**, wir sehen uns!",
      }),
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const evil = "<img src=x onerror=alert(1)>";
    expect(
      (await submit("fest", { vorname: evil, mail: "ada@example.com", kommst: "yes" })).status,
    ).toBe(201);
    await drain();
    const mine = to("ada@example.com");
    expect(mine).toHaveLength(1);
    expect(mine[0]!.Subject).toBe("Deine Antworten: Anmeldung fest");
    // the text part is plain text: the Markdown's words without its syntax (SPEC §25)
    expect(mine[0]!.TextBody).toContain(`Hallo ${evil}, wir sehen uns!`);
    expect(mine[0]!.TextBody).toContain("Kommst du?\n  Ja");
    expect(mine[0]!.HtmlBody).toContain(
      "Hallo <strong>&#60;img src=x onerror=alert(1)&#62;</strong>",
    );
    expect(mine[0]!.HtmlBody).not.toContain("<img");
    expect(mine[0]!.HtmlBody).toContain('<html lang="de">');
    // the owner's notification speaks German too, yes/no included
    const owner = postmark.sent.filter(
      (e) => e.To === "owner@example.com" && e.Subject.includes("fest"),
    );
    expect(owner.map((e) => e.Subject)).toEqual(["Neue Antwort auf Anmeldung fest"]);
    expect(owner[0]!.TextBody).toContain("Kommst du?\n  Ja");
    expect(owner[0]!.TextBody).toMatch(/\nBericht: http/);
    await drain();
    expect(to("ada@example.com")).toHaveLength(1);
  });

  it("sends nothing without an answer in the field, and one per response under an idempotent retry", async () => {
    expect((await submit("fest", { vorname: "Bo" })).status).toBe(201);
    const first = await submit("fest", { vorname: "Cy", mail: "cy@example.com" }, "k-1");
    const again = await submit("fest", { vorname: "Cy", mail: "cy@example.com" }, "k-1");
    expect([first.status, again.body.id]).toEqual([201, first.body.id]);
    await drain();
    expect(to("cy@example.com")).toHaveLength(1);
    const rows = await s.ctx.db.query<{ recipients: string[] }>(
      "select recipients from outbox where kind = 'respondent'",
    );
    expect(rows.map((r) => r.recipients).sort()).toEqual([["ada@example.com"], ["cy@example.com"]]);
  });

  it("never sends to an address that is not the answer of that field", async () => {
    expect((await submit("fest", { vorname: "Di", mail: "di@example.com" })).status).toBe(201);
    // a row whose recipient was changed behind the submit's back is refused when composed
    await s.ctx.db.query(
      "update outbox set recipients = '[\"mallory@example.com\"]'::jsonb where kind = 'respondent' and status = 'pending'",
    );
    await drain();
    expect(to("mallory@example.com")).toHaveLength(0);
    expect(to("di@example.com")).toHaveLength(0);
    const [row] = await s.ctx.db.query<{ last_error: string }>(
      "select last_error from outbox where kind = 'respondent' and status = 'pending'",
    );
    expect(row!.last_error).toMatch(/not the address answered/);
  });

  it("refuses an email_field that is not an email field of the form", async () => {
    const text = await api("POST", "/api/forms", {
      body: form("bad1", { email_field: "vorname" }),
    });
    expect([text.status, text.body.details]).toEqual([
      400,
      [
        {
          field: "notifications.respondent.email_field",
          message: '"vorname" is a text field; it must be an email field',
        },
      ],
    ]);
    const none = await api("POST", "/api/forms", { body: form("bad2", { email_field: "nope" }) });
    expect(none.body.details[0].message).toBe('"nope" is not a field of this form');
  });
});
