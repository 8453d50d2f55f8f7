// An agent sets up a webhook over MCP and checks its signature with only what the tools said
// (SPEC §18 "Webhooks for agents"): the secret, the recipe and the verify snippet add_webhook
// answers; then a test event and the delivery log, without the CLI or REST.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DB_KINDS } from "../helpers/db.ts";
import { connectAgent } from "../helpers/mcp-agents.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type Received, type Receiver, startReceiver } from "../webhooks/receiver.ts";

let receiver: Receiver;
let dir: string;
beforeAll(async () => {
  receiver = await startReceiver();
  dir = await mkdtemp(join(tmpdir(), "formdown-verify-"));
});
afterAll(async () => {
  await receiver?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Runs the snippet add_webhook gave, as a receiver would paste it, on one request. */
async function runSnippet(snippet: string, secret: string, r: Received, body = r.body) {
  const file = join(dir, `verify-${Math.random().toString(36).slice(2)}.mjs`);
  const h = { ...r.headers };
  await writeFile(
    file,
    `const secret = ${JSON.stringify(secret)};\nconst h = ${JSON.stringify(h)};\nconst body = ${JSON.stringify(body)};\n${snippet}\nexport default ok;\n`,
  );
  return (await import(pathToFileURL(file).href)).default as boolean;
}

const RUNS = DB_KINDS.flatMap((db) =>
  (["v2 SDK", "v1 SDK"] as const).map((kind) => [kind, db] as const),
);

describe.each(RUNS)("webhooks through MCP alone (%s, %s)", (kind, db) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ db });
  });
  afterAll(() => s?.close());

  it("adds a webhook, sends a test event the receiver verifies with the recipe, and lists the delivery", async () => {
    const agent = await connectAgent(kind, s.url, s.apiKey);
    const slug = `hooked-${kind === "v2 SDK" ? "v2" : "v1"}`;
    await agent.call("create_form", {
      definition: { title: "Hooked", slug, fields: [{ id: "a", type: "text" }] },
    });
    const tools = await agent.listTools();
    const add = tools.find((t) => t.name === "add_webhook") as unknown as { description: string };
    expect(add.description).toContain("HMAC-SHA256");
    expect(add.description).toContain("whsec_");

    const hook = (
      await agent.call("add_webhook", { slug, url: receiver.url, events: ["response.created"] })
    ).structuredContent;
    expect(hook.secret).toMatch(/^whsec_/);
    expect(hook.signing).toMatchObject({
      signed_content: "<webhook-id>.<webhook-timestamp>.<raw body>",
      algorithm: "HMAC-SHA256",
    });
    expect(hook.signing.key).toContain("base64");

    const before = receiver.received.length;
    const tested = (await agent.call("test_webhook", { slug, webhook_id: hook.id }))
      .structuredContent;
    expect(tested).toEqual({ delivered: true, status: 204 });
    const got = receiver.received[before]!;
    expect(got.json.type).toBe("webhook.test");
    // the standardwebhooks package, given only the secret the tool returned, accepts it…
    const headers = {
      "webhook-id": got.id,
      "webhook-timestamp": got.timestamp,
      "webhook-signature": got.signature,
    };
    expect(new Webhook(hook.secret).verify(got.body, headers)).toMatchObject({
      type: "webhook.test",
    });
    expect(() => new Webhook(hook.secret).verify(`${got.body} `, headers)).toThrow();
    // …and so does the snippet the tool returned, pasted as it is; a changed body fails it
    expect(await runSnippet(hook.signing.verify, hook.secret, got)).toBe(true);
    expect(
      await runSnippet(hook.signing.verify, hook.secret, got, got.body.replace("test", "tesT")),
    ).toBe(false);

    const listed = (await agent.call("list_webhook_deliveries", { slug, webhook_id: hook.id }))
      .structuredContent;
    expect(listed.total).toBe(1);
    expect(listed.deliveries[0]).toMatchObject({
      id: got.id,
      event: "webhook.test",
      status: "delivered",
      last_status: 204,
    });
    const pending = await agent.call("list_webhook_deliveries", {
      slug,
      webhook_id: hook.id,
      status: "pending",
    });
    expect(pending.structuredContent).toEqual({ deliveries: [], total: 0 });

    // a receiver that refuses: test_webhook says so, and the log shows it failed
    receiver.behave(() => 500);
    try {
      const refused = (await agent.call("test_webhook", { slug, webhook_id: hook.id }))
        .structuredContent;
      expect(refused).toMatchObject({ delivered: false, status: 500 });
    } finally {
      receiver.behave(() => 204);
    }
    const failed = (
      await agent.call("list_webhook_deliveries", { slug, webhook_id: hook.id, status: "failed" })
    ).structuredContent;
    expect(failed.total).toBe(1);
    expect(failed.deliveries[0]).toMatchObject({ status: "failed", last_status: 500 });
    // the same filter over REST, and a status that does not exist is a 400
    const rest = (status: string) =>
      fetch(`${s.url}/api/forms/${slug}/webhooks/${hook.id}/deliveries?status=${status}`, {
        headers: { authorization: `Bearer ${s.apiKey}` },
      });
    expect(((await (await rest("delivered")).json()) as { total: number }).total).toBe(1);
    const bogus = await rest("lost");
    expect(bogus.status).toBe(400);
    expect(await bogus.json()).toMatchObject({ code: "invalid_request" });
    expect(agent.failed).toEqual([]);

    // another account's key cannot test or read this webhook
    const other = await connectAgent(kind, s.url, await s.otherKey());
    const foreign = await other.call("list_webhook_deliveries", { slug, webhook_id: hook.id });
    expect(foreign.isError).toBe(true);
    expect(["forbidden", "not_found"]).toContain(foreign.structuredContent.code);
    await other.close();
    await agent.close();
  });
});
