// Second review (docs/security-review.md): a form file names the server's environment variables
// for its webhooks (SPEC §26), and every account shares that environment. Another account's form
// named @me's `secret_env` and had its own responses delivered to its own receiver signed with
// @me's secret (a signing oracle: any body it liked, valid at @me's receiver), and its `slack:`
// posted into @me's channel. A form names only variables under its account's prefix.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "../../functions/services/accounts.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type Receiver, startReceiver } from "../webhooks/receiver.ts";

describe.each(DB_KINDS)("a form file names only its account's variables (%s)", (kind) => {
  let s: TestServer;
  let mine: Receiver;
  let theirs: Receiver;
  const secret = `whsec_${randomBytes(32).toString("base64")}`;
  const form = (slug: string, webhooks: object[]) => ({
    title: "Lunch",
    slug,
    humanness: false,
    notifications: { webhooks },
    fields: [{ id: "name", type: "text" }],
  });
  beforeAll(async () => {
    [mine, theirs] = await Promise.all([startReceiver(), startReceiver()]);
    s = await startTestServer({
      db: kind,
      webhookSender: true,
      env: { FORMDOWN_WEBHOOK_PRIVATE: "1", ME_HOOK_SECRET: secret, ME_SLACK_URL: mine.url },
    });
  });
  afterAll(async () => {
    await s?.close();
    await Promise.all([mine, theirs].map((r) => r?.close()));
  });

  it("refuses another account's form that names @me's secret or Slack URL", async () => {
    const other = client(s.url, await s.otherKey());
    const res = await other("POST", "/api/forms", {
      body: form("theirs", [
        { url: theirs.url, secret_env: "ME_HOOK_SECRET" },
        { slack: "ME_SLACK_URL" },
      ]),
    });
    expect([res.status, res.body.code]).toEqual([400, "validation_failed"]);
    expect(res.body.details).toEqual([
      {
        field: "notifications.webhooks[0].secret_env",
        message: expect.stringMatching(
          /^ME_HOOK_SECRET is not this account's: a form of @other-.* names only variables that start with OTHER_/,
        ),
      },
      {
        field: "notifications.webhooks[1].slack",
        message: expect.stringMatching(/^ME_SLACK_URL is not this account's/),
      },
    ]);
    expect(theirs.received).toHaveLength(0);
  });

  it("refuses a name under a shorter handler's prefix that a longer handler owns", async () => {
    // @me-team's variables start with ME_TEAM_, which also starts with @me's ME_
    await createAccount(s.ctx, { handler: "me-team" });
    const res = await client(s.url, s.apiKey)("POST", "/api/forms", {
      body: form("team", [{ slack: "ME_TEAM_SLACK_URL" }]),
    });
    expect(res.body.details).toEqual([
      {
        field: "notifications.webhooks[0].slack",
        message: expect.stringMatching(/^ME_TEAM_SLACK_URL is not this account's.*@me-team/),
      },
    ]);
  });

  it("takes the account's own variables, and signs with its secret", async () => {
    const api = client(s.url, s.apiKey);
    const res = await api("POST", "/api/forms", {
      body: form("mine", [{ url: theirs.url, secret_env: "ME_HOOK_SECRET" }]),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    theirs.secret = secret;
    const sent = await api("POST", "/api/forms/mine/submit", {
      key: null,
      body: { fields: { name: "Ann" } },
    });
    expect(sent.status).toBe(201);
    const [got] = await theirs.until((r) => r.length === 1);
    expect(got!.verified).toBe(true);
  });
});
