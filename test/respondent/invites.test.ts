// Personal links (SPEC §25): single-use invites, minted by the owner (REST, MCP), each answering
// the form once; revoked links refused; the invite's email recorded with the response and its
// invitation sent through the outbox.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainOutbox } from "../../functions/mail/sender.ts";
import { client } from "../helpers/api.ts";
import { runFormdown } from "../helpers/cli.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const form = {
  title: "Offsite",
  slug: "offsite",
  humanness: false,
  access: { mode: "invite" },
  fields: [{ id: "food", type: "text", label: "Food" }],
};

describe.each(DB_KINDS)("personal links (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  const submit = (invite: string | undefined, food = "soup") =>
    api("POST", "/api/forms/offsite/submit", {
      key: null,
      body: { fields: { food }, ...(invite === undefined ? {} : { invite }) },
    });

  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
    expect((await api("POST", "/api/forms", { body: form })).status).toBe(201);
  });
  afterAll(() => s?.close());

  it("lets 40 invites answer exactly 40 times, each once", async () => {
    const made = await api("POST", "/api/forms/offsite/invites", { body: { count: 40 } });
    expect(made.status).toBe(201);
    const tokens: string[] = made.body.invites.map((i: { token: string }) => i.token);
    expect(new Set(tokens).size).toBe(40);
    expect(made.body.invites[0].url).toMatch(/\/@[a-z0-9-]+\/offsite\?invite=/);
    // without a link the form takes no answer
    const none = await submit(undefined);
    expect(none.status).toBe(403);
    expect(none.body.code).toBe("access_denied");
    expect((await submit("not-a-real-invite")).status).toBe(403);
    // every link twice, at once: one answer each, the other 409 already_answered
    const answers = await Promise.all([...tokens, ...tokens].map((t) => submit(t)));
    expect(answers.filter((a) => a.status === 201)).toHaveLength(40);
    const refused = answers.filter((a) => a.status !== 201);
    expect(refused).toHaveLength(40);
    for (const r of refused) expect(r.body.code).toBe("already_answered");
    const [count] = await s.ctx.db.query<{ n: number }>(
      "select count(*)::int as n from responses r join forms f on f.id = r.form_id where f.slug = 'offsite'",
    );
    expect(count?.n).toBe(40);
    const list = await api("GET", "/api/forms/offsite/invites");
    expect(list.status).toBe(200);
    expect(list.body.invites.map((i: { state: string }) => i.state)).toEqual(
      Array(40).fill("answered"),
    );
    // a later submit with a spent link, the response erased meanwhile, is still refused
    const listed = await api("GET", "/api/forms/offsite/responses?limit=1");
    await api("DELETE", `/api/forms/offsite/responses/${listed.body.responses[0].id}`);
    expect((await submit(listed.body.responses[0].invite.token)).body.code).toBe(
      "already_answered",
    );
  });

  it("refuses a revoked link, and records an invite's email with its response", async () => {
    const made = await api("POST", "/api/forms/offsite/invites", {
      body: { emails: ["ada@example.com", "bob@example.com"] },
    });
    expect(made.status).toBe(201);
    const [ada, bob] = made.body.invites as { token: string; email: string; url: string }[];
    expect(ada!.email).toBe("ada@example.com");
    // the invitations go into the outbox (kept, not sent: no mailer here), each with its own link
    await drainOutbox(s.ctx, 50);
    const mails = await s.ctx.db.query<{ recipients: string[]; text_body: string; status: string }>(
      "select recipients, text_body, status from outbox where kind = 'invite' order by recipients ->> 0",
    );
    expect(mails.map((m) => m.recipients)).toEqual([["ada@example.com"], ["bob@example.com"]]);
    expect(mails[0]!.text_body).toContain(ada!.url);
    expect(mails.every((m) => m.status === "kept")).toBe(true);
    // opening the page through the link marks it opened
    const seen = await api("POST", "/api/forms/offsite/events", {
      key: null,
      body: { type: "view", invite: bob!.token },
    });
    expect(seen.status).toBe(204);
    const revoked = await api("DELETE", `/api/forms/offsite/invites/${bob!.token}`);
    expect(revoked.status).toBe(200);
    const refused = await submit(bob!.token);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("access_denied");
    const answered = await submit(ada!.token, "stew");
    expect(answered.status).toBe(201);
    const one = await api("GET", `/api/forms/offsite/responses/${answered.body.response_id}`);
    expect(one.body.invite).toEqual({ token: ada!.token, email: "ada@example.com" });
    const states = (await api("GET", "/api/forms/offsite/invites")).body.invites as {
      token: string;
      state: string;
      emailed?: string;
    }[];
    expect(states.find((i) => i.token === ada!.token)).toMatchObject({
      state: "answered",
      emailed: "kept",
    });
    expect(states.find((i) => i.token === bob!.token)?.state).toBe("revoked");
    expect((await api("DELETE", "/api/forms/offsite/invites/nope")).status).toBe(404);
  });

  it("answers bad requests with a clear error", async () => {
    for (const body of [
      {},
      { count: -1 },
      { emails: ["x"] },
      { count: 5000 },
      { expires_at: "no" },
    ]) {
      const r = await api("POST", "/api/forms/offsite/invites", { body });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe("validation_failed");
    }
  });

  it("mints links from the command line", async () => {
    const run = await runFormdown(
      ["invite", "offsite", "--email", "cy@example.com", "--count", "2", "--json"],
      { env: { FORMDOWN_URL: s.url, FORMDOWN_API_KEY: s.apiKey } },
    );
    expect(run.code, run.stderr).toBe(0);
    const links = JSON.parse(run.stdout) as { url: string; email?: string }[];
    expect(links).toHaveLength(3);
    expect(links[0]).toMatchObject({ email: "cy@example.com" });
    expect(links.every((l) => l.url.includes("?invite="))).toBe(true);
    const bare = await runFormdown(["invite", "offsite"], {
      env: { FORMDOWN_URL: s.url, FORMDOWN_API_KEY: s.apiKey },
    });
    expect(bare.code).toBe(2);
  });

  it("takes files on an invite-only form only with an unspent link", async () => {
    await api("POST", "/api/forms", {
      body: {
        ...form,
        slug: "cvs",
        fields: [{ id: "cv", type: "file", label: "CV", accept: ["application/pdf"] }],
      },
    });
    const made = await api("POST", "/api/forms/cvs/invites", { body: { count: 1 } });
    const upload = (invite?: string) => {
      const body = new FormData();
      if (invite) body.set("invite", invite);
      body.set("field", "cv");
      body.set("file", new File(["%PDF-1.4 x"], "cv.pdf", { type: "application/pdf" }));
      return fetch(`${s.url}/api/forms/cvs/uploads`, { method: "POST", body });
    };
    const refused = await upload();
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { code: string }).code).toBe("access_denied");
    expect((await upload(made.body.invites[0].token)).status).toBe(201);
  });

  it("refuses an expired link", async () => {
    const made = await api("POST", "/api/forms/offsite/invites", {
      body: { count: 1, expires_at: new Date(Date.now() + 60_000).toISOString() },
    });
    const token = made.body.invites[0].token;
    await s.ctx.db.query(
      "update invites set expires_at = now() - interval '1 second' where token = $1",
      [token],
    );
    const r = await submit(token);
    expect(r.status).toBe(403);
    expect(r.body.code).toBe("access_denied");
  });
});
