// Ninth review (docs/security-review.md): a resume link is claimed by the page that opens it
// (eighth review): its first save moves the partial to a new token. But the resume email is
// composed when the outbox sends it, with the partial's token at that moment. A stranger made a
// partial naming their own address (no key), handed someone the form's address with
// `?resume=<its token>`, and the email still waiting in the outbox (a drain a minute on a
// serverless deployment, a backlog, a provider down and retried) carried the token the victim's
// page claimed: the stranger read every answer page by page. Now a claim drops the partial's
// resume email that has not gone yet.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainOutbox } from "../../functions/mail/sender.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const definition = {
  title: "Health check",
  slug: "health",
  humanness: false,
  status: "live",
  settings: { partial: true },
  fields: [
    { id: "mail", type: "email", label: "Email", step: 1 },
    { id: "name", type: "text", label: "Name", step: 1 },
    { id: "cond", type: "text", label: "Condition", step: 2 },
  ],
};

describe.each(DB_KINDS)("a claimed resume link's waiting email (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  const save = (body: object) =>
    api("POST", "/api/forms/health/partial", { key: null, body: { page: 1, ...body } });

  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
    const created = await api("POST", "/api/forms", { body: definition });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  });
  afterAll(() => s?.close());

  it("does not send the stranger the token the victim's page claimed", async () => {
    // the stranger's partial, their own address in it: its resume email waits in the outbox
    const planted = await save({ fields: { mail: "stranger@example.org" } });
    expect(planted.status).toBe(200);
    // the victim opens ?resume=<token> and saves their first page (the page sends claim)
    const claimed = await save({
      fields: { mail: "victim@example.com", name: "Victim Person" },
      resume: planted.body.resume,
      claim: true,
    });
    expect(claimed.status).toBe(200);
    expect(claimed.body.resume).not.toBe(planted.body.resume);
    await drainOutbox(s.ctx, 100);
    const mails = await s.ctx.db.query<{ text_body: string | null }>(
      "select text_body from outbox where kind = 'resume'",
    );
    for (const { text_body } of mails) {
      expect(text_body ?? "").not.toContain(claimed.body.resume);
      const token = /resume=([^\s&]+)/.exec(text_body ?? "")?.[1];
      if (token) {
        const read = await api("GET", `/api/forms/health/partial/${token}`, { key: null });
        expect(read.status).toBe(404);
      }
    }
    // the victim's own saves go on under their token
    const own = await api("GET", `/api/forms/health/partial/${claimed.body.resume}`, { key: null });
    expect(own.body.fields.name).toBe("Victim Person");
  });
});
