// The receiver the README shows, run as written (only its port changed), verifies a real
// delivery and rejects a forged one: the README stays true.
import { type ChildProcess, spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { client } from "../helpers/api.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

let s: TestServer;
let child: ChildProcess | null = null;

const freePort = () =>
  new Promise<number>((resolve) => {
    const srv = createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });

beforeAll(async () => {
  s = await startTestServer({ webhookSender: true });
});
afterAll(async () => {
  child?.kill();
  await s?.close();
});

describe("the README's webhook receiver", () => {
  it("verifies a signed response.created and rejects a forged request", async () => {
    const readme = await readFile(new URL("../../docs/webhooks.md", import.meta.url), "utf8");
    const code = /```js\n(\/\/ receiver\.mjs[\s\S]*?)```/.exec(readme)?.[1];
    expect(code).toBeDefined();
    const port = await freePort();
    const file = join(tmpdir(), `formdown-receiver-${port}.mjs`);
    await writeFile(file, code!.replaceAll("8000", String(port)));
    const api = client(s.url, s.apiKey);
    await api("POST", "/api/forms", {
      body: {
        title: "Readme",
        slug: "readme-hook",
        humanness: false,
        fields: [{ id: "q", type: "text", label: "Q" }],
      },
    });
    const hook = await api("POST", "/api/forms/readme-hook/webhooks", {
      body: { url: `http://127.0.0.1:${port}/` },
    });
    let out = "";
    child = spawn(process.execPath, [file], {
      env: { PATH: process.env.PATH, WEBHOOK_SECRET: hook.body.secret },
    });
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
    });
    const until = async (text: string) => {
      for (let i = 0; i < 300 && !out.includes(text); i++)
        await new Promise((r) => setTimeout(r, 20));
      expect(out).toContain(text);
    };
    await until("listening");
    const sent = await api("POST", "/api/forms/readme-hook/submit", {
      key: null,
      body: { fields: { q: "hello" } },
    });
    await until(sent.body.response_id);
    expect(out).toMatch(new RegExp(`verified \\S+ .*${sent.body.response_id}`));
    const forged = await fetch(`http://127.0.0.1:${port}/`, {
      method: "POST",
      headers: {
        "webhook-id": "msg_forged",
        "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
        "webhook-signature": "v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
      },
      body: "{}",
    });
    expect(forged.status).toBe(401);
    await until("REJECTED msg_forged");
  });
});
