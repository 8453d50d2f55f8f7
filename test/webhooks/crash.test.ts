// Durable delivery across a crash: a real server process (`node functions/node/start.ts`) is
// killed with SIGKILL after acknowledging submits and before their webhooks got through; the
// restarted server delivers every one of them, with the same webhook-id.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Receiver, startReceiver } from "./receiver.ts";

const START = new URL("../../functions/node/start.ts", import.meta.url).pathname;
let root: string;
let receiver: Receiver;
const children: ChildProcess[] = [];

function startProcess(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [START], {
      env: {
        PATH: process.env.PATH,
        HOME: root,
        PORT: "0",
        FORMDOWN_DATA_DIR: dataDir,
        FORMDOWN_REPO_DIR: join(root, "repo"),
        FORMDOWN_RATE_SUBMIT: "0",
        FORMDOWN_RATE_API: "0",
        FORMDOWN_WEBHOOK_TIMEOUT_MS: "1000",
        FORMDOWN_WEBHOOK_BACKOFF: "0.5,0.5,0.5,0.5",
        ASTRO_TELEMETRY_DISABLED: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let out = "";
    const onData = (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/\S+?)\)/.exec(out);
      if (m) resolve({ url: m[1]!, child });
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", (d: Buffer) => {
      out += d.toString();
    });
    child.once("exit", (code) => reject(new Error(`server exited ${code}: ${out}`)));
  });
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "formdown-crash-"));
  receiver = await startReceiver();
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill("SIGKILL");
  await receiver?.close();
  await rm(root, { recursive: true, force: true });
});

describe("webhook delivery across a kill -9", () => {
  it("delivers every acknowledged response after the server is killed and started again", async () => {
    const dataDir = join(root, "data");
    const first = await startProcess(dataDir);
    const key = (await readFile(join(dataDir, "api-key"), "utf8")).trim();
    const api = (url: string, method: string, path: string, body?: unknown) =>
      fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    const created = await api(first.url, "POST", "/api/forms", {
      title: "Crash",
      slug: "crash",
      humanness: false,
      fields: [{ id: "name", type: "text", label: "Name" }],
    });
    expect(created.status).toBe(201);
    const hook = (await (
      await api(first.url, "POST", "/api/forms/crash/webhooks", { url: receiver.url })
    ).json()) as { secret: string };
    receiver.secret = hook.secret;
    // the receiver takes every request and never answers: nothing gets through before the kill
    receiver.behave(() => "hang");
    const ids = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const res = await fetch(`${first.url}/api/forms/crash/submit`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ fields: { name: `n${i}` } }),
        });
        expect(res.status).toBe(201);
        return ((await res.json()) as { response_id: string }).response_id;
      }),
    );
    await receiver.until((r) => r.length >= 1);
    first.child.kill("SIGKILL");
    await new Promise((r) => first.child.once("exit", r));
    const before = receiver.received.length;

    receiver.behave(() => 200);
    await startProcess(dataDir);
    // the attempts in flight at the kill come back once their lease (timeout + 5 s) runs out
    await receiver.until(
      (r) => new Set(r.slice(before).map((x) => x.json.data.response.id)).size === 20,
      30_000,
    );
    const after = receiver.received.slice(before);
    expect(new Set(after.map((r) => r.json.data.response.id))).toEqual(new Set(ids));
    expect(after.every((r) => r.verified)).toBe(true);
    // a redelivery carries the id of the attempt the kill interrupted
    const firstIds = new Set(receiver.received.slice(0, before).map((r) => r.id));
    expect(after.filter((r) => firstIds.has(r.id)).length).toBe(firstIds.size);
  }, 120_000);
});
