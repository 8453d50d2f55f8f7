import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseHTML } from "linkedom";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createContext } from "../../functions/compose.ts";
import type { AppContext, Log } from "../../functions/context.ts";
import { openPostgres } from "../../functions/db/db.ts";
import { enqueueDigests } from "../../functions/mail/digest.ts";
import { drainOutbox, sendDue } from "../../functions/mail/sender.ts";
import { type RunningServer, startServer } from "../../functions/node/server.ts";
import { createAccount } from "../../functions/services/accounts.ts";
import { startPostmarkFake } from "../fakes/postmark.ts";
import { client } from "../helpers/api.ts";
import { startTestServer } from "../helpers/server.ts";

// The clock the instances run on (FORMDOWN_NOW): the day reported is 2026-11-25, UTC.
const NOW = "2026-11-26T09:00:00Z";
const IN_PERIOD = "2026-11-25T10:00:00Z";
// the forms existed before the reported day (they are created at the real time, which moves on)
const BEFORE = "2026-11-24T10:00:00Z";

async function backdate(ctx: AppContext) {
  await ctx.db.query("update forms set created_at = $1", [BEFORE]);
  await ctx.db.query("update responses set submitted_at = $1", [IN_PERIOD]);
}
const quiet: Log = { info: () => {}, error: (m, e) => console.error(m, e) };

const form = (slug: string, notifications: Record<string, unknown>) => ({
  title: `Digest <${slug}>`,
  slug,
  humanness: false,
  notifications: {
    email: ["owner@example.com"],
    strategy: { immediate_count: 0 },
    ...notifications,
  },
  fields: [
    { id: "name", type: "text", label: "Name" },
    { id: "color", type: "radio", label: "Colour", options: ["red", "blue"] },
  ],
});

async function seed(api: ReturnType<typeof client>, ctx: AppContext) {
  await api("POST", "/api/forms", { body: form("busy", { digest: "daily" }) });
  await api("POST", "/api/forms", { body: form("quiet", { digest: "daily" }) });
  await api("POST", "/api/forms", {
    body: form("always", { digest: "daily", digest_empty: true }),
  });
  await api("POST", "/api/forms", { body: form("off", {}) });
  for (const slug of ["busy", "off"])
    for (const color of ["red", "red", "blue"])
      expect(
        (
          await api("POST", `/api/forms/${slug}/submit`, {
            key: null,
            body: { fields: { name: "A", color } },
          })
        ).status,
      ).toBe(201);
  // the responses arrived during the reported day
  await backdate(ctx);
}

describe("digest emails (embedded)", () => {
  it("writes one digest per form and period, none for an empty period unless digest_empty", async () => {
    const s = await startTestServer({ env: { FORMDOWN_NOW: NOW } });
    try {
      await seed(client(s.url, s.apiKey), s.ctx);
      expect(await enqueueDigests(s.ctx)).toBe(2);
      expect(await enqueueDigests(s.ctx)).toBe(0);
      await drainOutbox(s.ctx);
      const rows = await s.ctx.db.query<{
        slug: string;
        subject: string;
        text_body: string;
        html_body: string;
      }>(
        `select f.slug, o.subject, o.text_body, o.html_body from outbox o join forms f on f.id = o.form_id
          where o.kind = 'digest' and o.status = 'kept' order by f.slug`,
      );
      expect(rows.map((r) => [r.slug, r.subject])).toEqual([
        ["always", "Daily digest: Digest <always> — 0 responses"],
        ["busy", "Daily digest: Digest <busy> — 3 responses"],
      ]);
      const busy = rows[1]!;
      expect(busy.text_body).toContain("3 responses in Nov 25, 2026 (+3 against the day before)");
      expect(busy.text_body).toContain("| red | 2 | 67% |");
      const doc = parseHTML(busy.html_body).document;
      expect(doc.querySelectorAll("script").length).toBe(0);
      expect(doc.querySelector("h1")!.textContent).toBe("Digest <busy> — responses report");
      expect(doc.querySelector('section[data-field="color"] tbody td')!.textContent).toBe("2");
      const live = [...doc.querySelectorAll("a")].map((a) => a.getAttribute("href"));
      expect(live[0]).toMatch(/\/view\/forms\/[0-9a-f-]+\/report\?period=7d&exp=\d+&sig=/);
      // the next day had no responses: only the form that wants empty digests gets one
      expect(await enqueueDigests(s.ctx, Date.parse("2026-11-27T09:00:00Z"))).toBe(1);
    } finally {
      await s.close();
    }
  });

  it("writes a German form's report (REST) and its digest in German, Ja/Nein included", async () => {
    const s = await startTestServer({ env: { FORMDOWN_NOW: NOW } });
    try {
      const api = client(s.url, s.apiKey);
      const fest = {
        ...form("fest", { digest: "daily" }),
        title: "Sommerfest",
        type: "survey",
        locale: "de",
        fields: [
          { id: "vorname", type: "text", label: "Vorname" },
          { id: "kommt", type: "yes_no", label: "{field:vorname}, kommst du?" },
        ],
      };
      expect((await api("POST", "/api/forms", { body: fest })).status).toBe(201);
      for (const kommt of ["yes", "yes", "no"])
        expect(
          (
            await api("POST", "/api/forms/fest/submit", {
              key: null,
              body: { fields: { vorname: "Ada", kommt } },
            })
          ).status,
        ).toBe(201);
      await backdate(s.ctx);
      // no-break spaces before "%" are Intl's; read them as plain spaces
      const plain = (text: string) => text.replace(/[\u00a0\u202f]/g, " ");

      const markdown = plain((await api("GET", "/api/forms/fest/report?period=all")).body);
      expect(markdown).toContain("# Sommerfest — Auswertung der Antworten");
      expect(markdown).toContain("**3** Antworten (gesamter Zeitraum)");
      expect(markdown).toContain("### \\[vorname\\], kommst du?");
      expect(markdown).toContain("| Ja | 2 | 67 % |");
      expect(markdown).toContain("| Nein | 1 | 33 % |");
      expect(markdown).toContain("## Abbrüche pro Feld");
      const res = await fetch(`${s.url}/api/forms/fest/report?period=all&format=html`, {
        headers: { authorization: `Bearer ${s.apiKey}` },
      });
      const page = parseHTML(await res.text()).document;
      expect(page.documentElement.getAttribute("lang")).toBe("de");
      expect(page.querySelector('section[data-field="kommt"] svg title')!.textContent).toBe(
        "[vorname], kommst du?: Antworten pro Option",
      );

      expect(await enqueueDigests(s.ctx)).toBe(1);
      await drainOutbox(s.ctx);
      const [mail] = await s.ctx.db.query<{
        subject: string;
        text_body: string;
        html_body: string;
      }>(
        "select subject, text_body, html_body from outbox where kind = 'digest' and status = 'kept'",
      );
      expect(mail!.subject).toBe("Tägliche Übersicht: Sommerfest — 3 Antworten");
      expect(plain(mail!.text_body)).toContain(
        "Sommerfest: 3 Antworten (25.11.2026; +3 gegenüber dem Vortag), 3 Antworten insgesamt.",
      );
      expect(mail!.text_body).toContain("Die Auswertung, aktuell: ");
      expect(plain(mail!.text_body)).toContain("| Ja | 2 | 67 % |");
      const doc = parseHTML(mail!.html_body).document;
      expect(doc.documentElement.getAttribute("lang")).toBe("de");
      expect(doc.querySelector("h1")!.textContent).toBe("Sommerfest — Auswertung der Antworten");
      expect(doc.querySelector("a")!.textContent).toBe("Aktuelle Auswertung öffnen");
      const labels = [...doc.querySelectorAll('section[data-field="kommt"] tbody th')];
      expect(labels.map((th) => th.textContent)).toEqual(["Ja", "Nein"]);
      expect(doc.body.textContent).not.toMatch(/responses|answered|Drop-off|\{field:/);
    } finally {
      await s.close();
    }
  });
});

const PG = process.env.TEST_DATABASE_URL ? ["postgres"] : [];

describe.each(PG)("digest emails with two instances on one %s database", () => {
  let postmark: Awaited<ReturnType<typeof startPostmarkFake>>;
  let a: RunningServer;
  let b: AppContext;
  let drop: () => Promise<void>;
  beforeAll(async () => {
    postmark = await startPostmarkFake();
    const admin = postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
    const name = `formdown_digest_${Date.now()}`;
    await admin.unsafe(`create database ${name}`);
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.pathname = `/${name}`;
    const dir = await mkdtemp(join(tmpdir(), "formdown-digest-"));
    const env = {
      DATABASE_URL: url.toString(),
      FORMDOWN_NOW: NOW,
      FORMDOWN_DATA_DIR: dir,
      FORMDOWN_REPO_DIR: dir,
      FORMDOWN_RATE_SUBMIT: "0",
      FORMDOWN_RATE_API: "0",
      POSTMARK_SERVER_TOKEN: "pm-test-token",
      POSTMARK_API_URL: postmark.url,
      FORMDOWN_MAIL_FROM: "forms@example.com",
      // closes at once: no kept-alive connection waited for
      FORMDOWN_DRAIN_MS: "0",
    };
    a = await startServer({
      env,
      port: 0,
      host: "127.0.0.1",
      log: quiet,
      skipRepositoryForms: true,
      outboxSender: false,
    });
    b = await createContext(env, { db: openPostgres(url.toString()), log: quiet });
    drop = async () => {
      await b.db.close();
      await a.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    };
  }, 60_000);
  afterAll(async () => {
    await drop?.();
    await postmark?.close();
  });

  it("sends exactly one digest per form and period while both drain at once", async () => {
    const api_key = a.firstKey?.key ?? (await createAccount(a.ctx, { handler: "me" })).api_key;
    await seed(client(a.url, api_key), a.ctx);
    for (let round = 0; round < 3; round++)
      await Promise.all([sendDue(a.ctx), sendDue(b), sendDue(a.ctx), sendDue(b)]);
    const digests = postmark.sent.filter((e) => e.Subject.startsWith("Daily digest"));
    expect(digests.map((e) => e.Subject).sort()).toEqual([
      "Daily digest: Digest <always> — 0 responses",
      "Daily digest: Digest <busy> — 3 responses",
    ]);
    const busy = digests.find((e) => e.Subject.includes("busy"))!;
    expect(busy.To).toBe("owner@example.com");
    expect(busy.TextBody).toContain("3 responses in Nov 25, 2026");
    expect(busy.HtmlBody).toMatch(/^<!doctype html>/);
  });
});
