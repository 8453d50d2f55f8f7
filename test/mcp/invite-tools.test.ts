// Personal links over MCP (SPEC §25): create_invites, list_invites and revoke_invite through the
// real SDK clients (v2 and v1, whose callTool checks every answer against the tool's
// outputSchema, errors included), the same service as REST; and the partial responses an agent
// reads with list_responses {status}.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { drainOutbox } from "../../functions/mail/sender.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { type Agent, connectAgent } from "../helpers/mcp-agents.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

describe.each(DB_KINDS)("invite tools and partials over MCP (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  let agents: Agent[] = [];
  beforeAll(async () => {
    s = await startTestServer({ db: kind });
    api = client(s.url, s.apiKey);
    agents = [
      await connectAgent("v2 SDK", s.url, s.apiKey),
      await connectAgent("v1 SDK", s.url, s.apiKey),
    ];
    const created = await api("POST", "/api/forms", {
      body: {
        title: "Offsite",
        slug: "offsite",
        humanness: false,
        settings: { partial: true },
        fields: [
          { id: "food", type: "text", label: "Food", step: 1 },
          { id: "ok", type: "yes_no", label: "OK?", step: 2 },
        ],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  });
  afterAll(async () => {
    for (const agent of agents) await agent.close();
    await s?.close();
  });
  const submit = (invite: string) =>
    api("POST", "/api/forms/offsite/submit", {
      key: null,
      body: { fields: { food: "soup", ok: "yes" }, invite },
    });

  it("mints, lists and revokes single-use links, the access mode making them the only way in", async () => {
    const [v2, v1] = agents as [Agent, Agent];
    const made = await v2.call("create_invites", {
      slug: "offsite",
      emails: ["ada@example.com", "ADA@example.com", "bob@example.com"],
      count: 2,
    });
    expect(made.isError, JSON.stringify(made.structuredContent)).toBeFalsy();
    const invites = made.structuredContent.invites as {
      token: string;
      url: string;
      email?: string;
    }[];
    // one per address (spelled twice: once), and two without
    expect(invites.map((i) => i.email ?? null)).toEqual([
      "ada@example.com",
      "bob@example.com",
      null,
      null,
    ]);
    for (const i of invites) expect(i.url).toBe(`${s.url}/@me/offsite?invite=${i.token}`);
    // the addressed ones go through the outbox
    await drainOutbox(s.ctx, 50);
    const mails = await s.ctx.db.query<{ recipients: string[]; text_body: string }>(
      "select recipients, text_body from outbox where kind = 'invite' order by recipients ->> 0",
    );
    expect(mails.map((m) => m.recipients)).toEqual([["ada@example.com"], ["bob@example.com"]]);
    expect(mails[0]!.text_body).toContain(invites[0]!.url);

    const access = await v1.call("update_form_access", { slug: "offsite", mode: "invite" });
    expect(access.isError, JSON.stringify(access.structuredContent)).toBeFalsy();
    const [ada, bob, bare] = invites as [
      (typeof invites)[0],
      (typeof invites)[0],
      (typeof invites)[0],
    ];
    expect((await submit(ada.token)).status).toBe(201);
    const revoked = await v1.call("revoke_invite", { slug: "offsite", token: bob.token });
    expect(revoked.structuredContent).toEqual({ revoked: true, token: bob.token });
    const refused = await submit(bob.token);
    expect([refused.status, refused.body.code]).toEqual([403, "access_denied"]);
    const twice = await submit(ada.token);
    expect([twice.status, twice.body.code]).toEqual([409, "already_answered"]);

    const listed = await v1.call("list_invites", { slug: "offsite" });
    expect(listed.isError).toBeFalsy();
    const states = Object.fromEntries(
      (listed.structuredContent.invites as { token: string; state: string }[]).map((i) => [
        i.token,
        i.state,
      ]),
    );
    expect(states[ada.token]).toBe("answered");
    expect(states[bob.token]).toBe("revoked");
    expect(states[bare.token]).toBe("sent");
    // what the REST list says, the same service
    const rest = await api("GET", "/api/forms/offsite/invites");
    expect(rest.body).toEqual(listed.structuredContent);
  });

  it("answers bad arguments and unknown links as {error, code}, which both clients accept", async () => {
    for (const agent of agents) {
      const none = await agent.call("create_invites", { slug: "offsite" });
      expect(none.structuredContent).toMatchObject({ code: "validation_failed" });
      const typo = await agent.call("create_invites", { slug: "offsite", count: "two" });
      expect(typo.structuredContent.details).toEqual([
        { field: "count", message: "expected a number, got a string" },
      ]);
      const bad = await agent.call("create_invites", { slug: "offsite", emails: ["nope"] });
      expect(bad.structuredContent).toMatchObject({ code: "validation_failed" });
      const gone = await agent.call("revoke_invite", { slug: "offsite", token: "no-such" });
      expect(gone.structuredContent.code).toBe("not_found");
      const other = await agent.call("list_invites", { slug: "nope" });
      expect(other.structuredContent.code).toBe("not_found");
      expect(agent.failed.every((f) => !/does not match|validate/i.test(f))).toBe(true);
    }
  });

  it("lists partial responses with list_responses {status}, out of the default list", async () => {
    await api("PUT", "/api/forms/offsite/access", { body: { mode: "public" } });
    const saved = await api("POST", "/api/forms/offsite/partial", {
      key: null,
      body: { fields: { food: "stew" }, page: 1 },
    });
    expect(saved.status).toBe(200);
    const [v2] = agents as [Agent];
    const complete = await v2.call("list_responses", { slug: "offsite" });
    const partial = await v2.call("list_responses", { slug: "offsite", status: "partial" });
    const all = await v2.call("list_responses", { slug: "offsite", status: "all" });
    expect(complete.structuredContent.responses.map((r: { id: string }) => r.id)).not.toContain(
      saved.body.id,
    );
    expect(partial.structuredContent).toMatchObject({
      total: 1,
      responses: [{ id: saved.body.id, status: "partial", payload: { food: "stew" } }],
    });
    expect(all.structuredContent.total).toBe(complete.structuredContent.total + 1);
    const wrong = await v2.call("list_responses", { slug: "offsite", status: "draft" });
    expect(wrong.structuredContent).toMatchObject({ code: "validation_failed" });
  });
});
