// `formdown webhooks …` and `formdown responses delete …` against a real server.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { runFormdown } from "../helpers/cli.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";
import { type Receiver, startReceiver } from "./receiver.ts";

let s: TestServer;
let home: string;
let receiver: Receiver;

const formdown = (args: string[]) =>
  runFormdown(args, { env: { HOME: home, FORMDOWN_URL: s.url, FORMDOWN_API_KEY: s.apiKey } });

beforeAll(async () => {
  s = await startTestServer({ webhookSender: true });
  home = await mkdtemp(join(tmpdir(), "formdown-home-"));
  receiver = await startReceiver();
  await client(s.url, s.apiKey)("POST", "/api/forms", {
    body: {
      title: "CLI hooks",
      slug: "cli-hooks",
      humanness: false,
      fields: [{ id: "q", type: "text", label: "Q" }],
    },
  });
});
afterAll(async () => {
  await receiver?.close();
  await s?.close();
});

describe("formdown webhooks / responses", () => {
  it("adds, lists, tests, shows deliveries and removes a webhook", async () => {
    const add = await formdown(["webhooks", "add", "cli-hooks", receiver.url]);
    expect(add.code).toBe(0);
    const hook = JSON.parse(add.stdout) as { id: string; secret: string };
    expect(hook.secret).toMatch(/^whsec_/);
    expect(add.stderr).toContain("shown only once");
    receiver.secret = hook.secret;
    const list = await formdown(["webhooks", "list", "cli-hooks"]);
    expect(list.stdout).toContain(hook.id);
    expect(list.stdout).toContain(receiver.url);
    expect(list.stdout).not.toContain(hook.secret);
    const test = await formdown(["webhooks", "test", "cli-hooks", hook.id]);
    expect([test.code, JSON.parse(test.stdout)]).toEqual([0, { delivered: true, status: 204 }]);
    expect(receiver.received[0]!.verified).toBe(true);
    const log = await formdown(["webhooks", "deliveries", "cli-hooks", hook.id]);
    expect(log.stdout).toMatch(/webhook\.test\s+delivered\s+1/);
    expect((await formdown(["webhooks", "frob", "cli-hooks"])).code).toBe(2);
    expect((await formdown(["webhooks", "remove", "cli-hooks"])).code).toBe(2);
    const gone = await formdown(["webhooks", "remove", "cli-hooks", hook.id]);
    expect(gone.code).toBe(0);
    expect((await formdown(["webhooks", "list", "cli-hooks", "--json"])).stdout.trim()).toBe("[]");
    const missing = await formdown(["webhooks", "test", "cli-hooks", hook.id]);
    expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining("not_found")]);
  });

  it("deletes one response, then a time range", async () => {
    const api = client(s.url, s.apiKey);
    const ids: string[] = [];
    for (const q of ["a", "b", "c"])
      ids.push(
        (await api("POST", "/api/forms/cli-hooks/submit", { key: null, body: { fields: { q } } }))
          .body.response_id,
      );
    const one = await formdown(["responses", "delete", "cli-hooks", ids[0]!]);
    expect(one.code).toBe(0);
    const again = await formdown(["responses", "delete", "cli-hooks", ids[0]!]);
    expect(again.code).toBe(1);
    expect((await formdown(["responses", "delete", "cli-hooks"])).code).toBe(2);
    const bulk = await formdown(["responses", "delete", "cli-hooks", "--until", "2999-01-01"]);
    expect(bulk.code).toBe(0);
    expect(JSON.parse(bulk.stdout)).toEqual({ deleted: 2 });
    expect((await api("GET", "/api/forms/cli-hooks/responses")).body.total).toBe(0);
  });
});
