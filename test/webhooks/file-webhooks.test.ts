// Webhooks kept in the form file (SPEC §26): a deploy with `notifications.webhooks` delivers a
// signed event and a Slack-shaped message (to a local stand-in) per response; removing them from
// the file and deploying stops both, and a webhook added through the API is left alone.
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reconcileRepository } from "../../functions/node/bootstrap.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type Receiver, startReceiver } from "./receiver.ts";

describe.each(DB_KINDS)("webhooks in the form file (%s)", (kind) => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  let hook: Receiver;
  let slack: Receiver;
  let sheet: Receiver;
  let other: Receiver;
  const secret = `whsec_${randomBytes(32).toString("base64")}`;
  const form = (webhooks?: object[]) => ({
    title: "Team lunch",
    slug: "lunch",
    humanness: false,
    ...(webhooks ? { notifications: { webhooks } } : {}),
    fields: [
      { id: "name", type: "text", label: "Your name" },
      { id: "food", type: "checkbox", label: "What do you eat?", options: ["Fish", "Veg"] },
    ],
  });
  beforeAll(async () => {
    [hook, slack, sheet, other] = await Promise.all([
      startReceiver(),
      startReceiver(),
      startReceiver(),
      startReceiver(),
    ]);
    hook.secret = secret;
    s = await startTestServer({
      db: kind,
      webhookSender: true,
      env: {
        FORMDOWN_WEBHOOK_PRIVATE: "1",
        ME_LUNCH_HOOK_SECRET: secret,
        ME_LUNCH_SLACK_URL: slack.url,
        ME_LUNCH_SHEET_URL: sheet.url,
      },
    });
    api = client(s.url, s.apiKey);
  });
  afterAll(async () => {
    await s?.close();
    await Promise.all([hook, slack, sheet, other].map((r) => r?.close()));
  });

  const submit = (name: string) =>
    api("POST", "/api/forms/lunch/submit", {
      key: null,
      body: { fields: { name, food: ["Fish", "Veg"] } },
    });

  it("refuses a file webhook whose environment variable is not set, or is the server's own", async () => {
    const res = await api("PUT", "/api/forms/lunch", {
      body: form([{ url: hook.url, secret_env: "ME_NOT_SET_HERE" }, { slack: "DATABASE_URL" }]),
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe("validation_failed");
    expect(res.body.details).toEqual([
      {
        field: "notifications.webhooks[0].secret_env",
        message: "ME_NOT_SET_HERE is not set on the server",
      },
      {
        field: "notifications.webhooks[1].slack",
        message: "DATABASE_URL is one of the server's own settings",
      },
    ]);
    expect((await api("GET", "/api/forms/lunch")).status).toBe(404);
  });

  it("delivers a signed event, a Slack message and a sheet row per response", async () => {
    const deployed = await api("PUT", "/api/forms/lunch", {
      body: form([
        { url: hook.url, secret_env: "ME_LUNCH_HOOK_SECRET" },
        { slack: "ME_LUNCH_SLACK_URL" },
        { sheet: "ME_LUNCH_SHEET_URL" },
      ]),
    });
    expect(deployed.status).toBe(201);
    // one webhook added through the API beside them
    const added = await api("POST", "/api/forms/lunch/webhooks", { body: { url: other.url } });
    expect(added.status).toBe(201);
    const listed = (await api("GET", "/api/forms/lunch/webhooks")).body.webhooks;
    // listed by creation time: the file's three are written by one deploy, within PGlite's clock
    // tick at times, so their order among themselves is not asserted
    const pairs = listed.map((w: { url: string; source: string }) => [w.url, w.source]);
    expect(pairs.slice(0, 3).sort()).toEqual(
      [
        [hook.url, "file"],
        ["sheet:ME_LUNCH_SHEET_URL", "file"],
        ["slack:ME_LUNCH_SLACK_URL", "file"],
      ].sort(),
    );
    expect(pairs[3]).toEqual([other.url, "api"]);

    // the file's are changed by deploying the file, not through the API
    const slackHook = listed.find((w: { url: string }) => w.url.startsWith("slack:"));
    const refused = await api("DELETE", `/api/forms/lunch/webhooks/${slackHook.id}`);
    expect([refused.status, refused.body.code]).toEqual([409, "conflict"]);

    expect((await submit("Ann")).status).toBe(201);
    await hook.until((r) => r.length === 1);
    expect(hook.received[0]!.verified).toBe(true);
    expect(hook.received[0]!.json.type).toBe("response.created");
    expect(hook.received[0]!.json.data.response.payload.name).toBe("Ann");

    await slack.until((r) => r.length === 1);
    const message = JSON.parse(slack.received[0]!.body);
    expect(message.text).toBe("New response to Team lunch");
    expect(message.blocks[0]).toEqual({
      type: "header",
      text: { type: "plain_text", text: "New response: Team lunch" },
    });
    expect(message.blocks.slice(1, 3)).toEqual([
      { type: "section", text: { type: "mrkdwn", text: "*Your name*\nAnn" } },
      { type: "section", text: { type: "mrkdwn", text: "*What do you eat?*\nFish, Veg" } },
    ]);

    await sheet.until((r) => r.length === 1);
    const row = JSON.parse(sheet.received[0]!.body);
    expect(row.headers).toEqual(["Response", "Submitted at", "Your name", "What do you eat?"]);
    expect(row.row.slice(2)).toEqual(["Ann", "Fish, Veg"]);
    await other.until((r) => r.length === 1);
  });

  it("stops them once they are removed from the file and the form deployed", async () => {
    const again = await api("PUT", "/api/forms/lunch", { body: form() });
    expect(again.status).toBe(200);
    const left = (await api("GET", "/api/forms/lunch/webhooks")).body.webhooks;
    expect(left.map((w: { url: string }) => w.url)).toEqual([other.url]);
    expect((await submit("Bob")).status).toBe(201);
    // the API's webhook still gets Bob; by then the file's would have had him too
    await other.until((r) => r.some((x) => x.json.data.response?.payload.name === "Bob"));
    expect([hook.received.length, slack.received.length, sheet.received.length]).toEqual([1, 1, 1]);
  });

  it("follows the file in the repository: a commit with the preset delivers, one without it stops", async () => {
    const file = (hooks: string) => `---
title: Menu
slug: menu
humanness: false
${hooks}fields:
  - id: name
    type: text
    label: Your name
---
`;
    const commit = async (text: string) => {
      await mkdir(join(s.repoDir, "forms/@me"), { recursive: true });
      await writeFile(join(s.repoDir, "forms/@me/menu.md"), text);
      execFileSync(
        "sh",
        ["-c", "git add -A && git -c user.name=t -c user.email=t@example.com commit -qm menu"],
        { cwd: s.repoDir },
      );
      return reconcileRepository(s.ctx);
    };
    await commit(file("notifications:\n  webhooks:\n    - slack: ME_LUNCH_SLACK_URL\n"));
    const added = await api("POST", "/api/forms/menu/webhooks", { body: { url: other.url } });
    expect(added.status).toBe(201);
    const send = (name: string) =>
      api("POST", "/api/forms/menu/submit", { key: null, body: { fields: { name } } });
    expect((await send("Cy")).status).toBe(201);
    await slack.until((r) => r.some((x) => x.body.includes("*Your name*\\nCy")));
    await commit(file(""));
    expect((await send("Dee")).status).toBe(201);
    await other.until((r) => r.some((x) => x.json.data.response?.payload.name === "Dee"));
    expect(slack.received.filter((x) => x.body.includes("Menu"))).toHaveLength(1);
  });
});
