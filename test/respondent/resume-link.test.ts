// The resume link by email (SPEC §25): a partial response that names an email address gets one
// link, through the outbox, in the language of the page it was saved from, that continues it on
// any device; completing it leaves one response under the partial's id. No relay (SPEC §23): it
// shares the respondent's copy's 3 emails per address per form a day.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainOutbox } from "../../functions/mail/sender.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const definition = {
  title: "Offsite planning",
  slug: "plan",
  humanness: false,
  languages: ["de"],
  settings: { partial: true },
  notifications: { respondent: { email_field: "mail" } },
  fields: [
    { id: "name", type: "text", label: "Name", step: 1 },
    { id: "mail", type: "email", label: "Email", step: 1 },
    { id: "day", type: "radio", label: "Day", options: ["Tuesday", "Wednesday"], step: 2 },
  ],
};
const de = {
  title: "Ausflugsplanung",
  fields: {
    name: { label: "Name" },
    mail: { label: "E-Mail" },
    day: { label: "Tag", options: { Tuesday: "Dienstag", Wednesday: "Mittwoch" } },
  },
};

interface Mail {
  kind: string;
  recipients: string[];
  subject: string | null;
  text_body: string | null;
  html_body: string | null;
  status: string;
}

describe.each(DB_KINDS)("the resume link by email (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  const save = (body: object, slug = "plan") =>
    api("POST", `/api/forms/${slug}/partial`, { key: null, body });
  /** The resume emails to an address, drained first (embedded mode: kept in the outbox). */
  const mails = async (address: string) => {
    await drainOutbox(s.ctx, 100);
    return s.ctx.db.query<Mail>(
      `select kind, recipients, subject, text_body, html_body, status from outbox
        where kind = 'resume' and lower(recipients ->> 0) = lower($1) order by created_at`,
      [address],
    );
  };
  const linkIn = (text: string) => /https?:\/\/\S+resume=\S+/.exec(text)?.[0] ?? "";

  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
    const created = await api("POST", "/api/forms", {
      body: { ...definition, translations: { de } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  });
  afterAll(() => s?.close());

  it("emails the link once an address is answered, once per partial, and it continues the partial elsewhere", async () => {
    const first = await save({ fields: { name: "Ada" }, page: 0, lang: "en" });
    expect(first.status).toBe(200);
    const { resume, id } = first.body;
    expect(await mails("ada@example.com")).toEqual([]);
    // an address that is not one sends nothing
    await save({ fields: { name: "Ada", mail: "ada at example" }, page: 0, resume });
    const [none] = await s.ctx.db.query<{ n: number }>(
      "select count(*)::int as n from outbox where kind = 'resume'",
    );
    expect(none!.n).toBe(0);
    await save({ fields: { name: "Ada", mail: "ada@example.com" }, page: 1, lang: "en", resume });
    // a later save, another address too: still the one link
    await save({ fields: { name: "Ada", mail: "ada@example.com" }, page: 1, resume });
    await save({ fields: { name: "Ada", mail: "ada2@example.com" }, page: 1, resume });
    const sent = await mails("ada@example.com");
    expect(sent).toHaveLength(1);
    expect(await mails("ada2@example.com")).toEqual([]);
    const mail = sent[0]!;
    expect(mail.status).toBe("kept");
    expect(mail.subject).toBe("Continue: Offsite planning");
    const link = linkIn(mail.text_body!);
    expect(link).toBe(`${s.url}/@me/plan?resume=${resume}`);
    expect(mail.html_body).toContain(`href="${link}"`);
    // no answer travels in it
    expect(mail.text_body).not.toContain("Ada");
    // the link's token continues the partial on another device, and the submit completes it
    const token = new URL(link).searchParams.get("resume")!;
    const loaded = await api("GET", `/api/forms/plan/partial/${token}`, { key: null });
    expect(loaded.body).toEqual({ fields: { name: "Ada", mail: "ada2@example.com" }, page: 1 });
    const done = await api("POST", "/api/forms/plan/submit", {
      key: null,
      body: {
        fields: { name: "Ada", mail: "ada@example.com", day: "Tuesday" },
        resume: token,
      },
    });
    expect(done.status).toBe(201);
    expect(done.body.response_id).toBe(id);
    const all = await api("GET", "/api/forms/plan/responses?status=all");
    expect(all.body.responses.map((r: { id: string }) => r.id)).toEqual([id]);
    expect(all.body.responses[0].status).toBeUndefined();
    // the link went with its partial: no resume token outlives it
    expect(await mails("ada@example.com")).toEqual([]);
    expect((await api("GET", `/api/forms/plan/partial/${token}`, { key: null })).status).toBe(404);
  });

  it("speaks the language of the page it was saved from, its link opening that page", async () => {
    const saved = await save({
      fields: { name: "Jürgen", mail: "juergen@example.com" },
      page: 1,
      lang: "de",
    });
    expect(saved.status).toBe(200);
    const [mail] = await mails("juergen@example.com");
    expect(mail!.subject).toBe("Weiter ausfüllen: Ausflugsplanung");
    expect(mail!.text_body).toContain("Ihre bisherigen Antworten auf Ausflugsplanung");
    expect(mail!.html_body).toContain('<html lang="de"');
    expect(mail!.html_body).toContain(">Weiter ausfüllen</a>");
    expect(linkIn(mail!.text_body!)).toBe(`${s.url}/@me/plan/de?resume=${saved.body.resume}`);
    // a language the form does not have is not a page to link to
    const odd = await save({ fields: { mail: "odd@example.com" }, lang: "../x" });
    expect(odd.status).toBe(200);
    const [oddMail] = await mails("odd@example.com");
    expect(linkIn(oddMail!.text_body!)).toBe(`${s.url}/@me/plan?resume=${odd.body.resume}`);
  });

  it("is no relay: one address gets at most 3 emails a day from the form, copies included", async () => {
    const spellings = ["victim@example.org", "Victim@Example.org", "victim+x@example.org"];
    const saves = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        save({ fields: { mail: spellings[i % 3] }, page: 1, lang: "en" }),
      ),
    );
    expect(saves.map((r) => r.status)).toEqual(Array(6).fill(200));
    await drainOutbox(s.ctx, 100);
    const [links] = await s.ctx.db.query<{ n: number }>(
      "select count(*)::int as n from outbox where kind = 'resume' and recipients ->> 0 ilike 'victim%'",
    );
    expect(links!.n).toBe(3);
    const stats = await api("GET", "/api/forms/plan/stats");
    expect(stats.body.respondent_copies_dropped).toBe(3);
    // the respondent's copy takes from the same places: none left for it today
    const submitted = await api("POST", "/api/forms/plan/submit", {
      key: null,
      body: { fields: { mail: "victim@example.org", day: "Tuesday" } },
    });
    expect(submitted.status).toBe(201);
    await drainOutbox(s.ctx, 100);
    const [copies] = await s.ctx.db.query<{ n: number }>(
      "select count(*)::int as n from outbox where kind = 'respondent' and recipients ->> 0 ilike 'victim%'",
    );
    expect(copies!.n).toBe(0);
    expect((await api("GET", "/api/forms/plan/stats")).body.respondent_copies_dropped).toBe(4);
  });

  it("erasing the partial takes its email with it", async () => {
    const saved = await save({ fields: { mail: "erase@example.com" }, page: 1 });
    expect(await mails("erase@example.com")).toHaveLength(1);
    expect((await api("DELETE", `/api/forms/plan/responses/${saved.body.id}`)).status).toBe(204);
    expect(await mails("erase@example.com")).toEqual([]);
  });

  it("carries what a protected form's page needs: its link token, or the personal link", async () => {
    const base = { ...definition, languages: undefined, notifications: undefined };
    expect((await api("POST", "/api/forms", { body: { ...base, slug: "linked" } })).status).toBe(
      201,
    );
    const linked = await api("PUT", "/api/forms/linked/access", { body: { mode: "link" } });
    const token = linked.body.access_token as string;
    expect(token).toBeTruthy();
    const inLink = await save({ fields: { mail: "l@example.com" }, access: token }, "linked");
    expect(inLink.status).toBe(200);
    const [l] = await mails("l@example.com");
    expect(linkIn(l!.text_body!)).toBe(
      `${s.url}/@me/linked?access=${token}&resume=${inLink.body.resume}`,
    );

    const invited = await api("POST", "/api/forms", {
      body: { ...base, slug: "invited", access: { mode: "invite" } },
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    // an invite-only form saves partials only through a personal link, unspent
    const stranger = await save({ fields: { mail: "s@example.com" } }, "invited");
    expect([stranger.status, stranger.body.code]).toEqual([403, "access_denied"]);
    expect(await mails("s@example.com")).toEqual([]);
    const made = await api("POST", "/api/forms/invited/invites", { body: { count: 1 } });
    const invite = made.body.invites[0].token as string;
    const mine = await save({ fields: { mail: "i@example.com" }, invite }, "invited");
    expect(mine.status).toBe(200);
    const [i] = await mails("i@example.com");
    expect(linkIn(i!.text_body!)).toBe(
      `${s.url}/@me/invited?invite=${invite}&resume=${mine.body.resume}`,
    );
    const done = await api("POST", "/api/forms/invited/submit", {
      key: null,
      body: { fields: { mail: "i@example.com", day: "Tuesday" }, invite, resume: mine.body.resume },
    });
    expect(done.status).toBe(201);
    expect(done.body.response_id).toBe(mine.body.id);
    // spent: no more partials with it
    const after = await save({ fields: { name: "again" }, invite }, "invited");
    expect([after.status, after.body.code]).toEqual([409, "already_answered"]);
  });
});
