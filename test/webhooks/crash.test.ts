// Durable delivery across a crash: a real server process (`node functions/node/start.ts`) is
// killed with SIGKILL after acknowledging submits and before their webhooks got through; the
// restarted server delivers every one of them, with the same webhook-id.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DB_KINDS } from "../helpers/db.ts";
import { type Receiver, startReceiver } from "./receiver.ts";

const START = new URL("../../functions/node/start.ts", import.meta.url).pathname;
let root: string;
let receiver: Receiver;
const children: ChildProcess[] = [];

/** A new, empty Postgres database for the server to migrate; dropped after the suite. */
const dropped: (() => Promise<void>)[] = [];
async function postgresUrl(): Promise<string> {
  const admin = postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
  const name = `formdown_crash_${Date.now()}`;
  await admin.unsafe(`create database ${name}`);
  dropped.push(async () => {
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
  });
  const url = new URL(process.env.TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

function startProcess(
  dataDir: string,
  databaseUrl?: string,
): Promise<{ url: string; child: ChildProcess }> {
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
        // production mode refuses loopback receivers; this one is on loopback on purpose
        ...(databaseUrl ? { DATABASE_URL: databaseUrl, FORMDOWN_WEBHOOK_PRIVATE: "1" } : {}),
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
  for (const drop of dropped) await drop().catch(() => {});
  await rm(root, { recursive: true, force: true });
});

describe.each(DB_KINDS)("webhook delivery across a kill -9 (%s)", (kind) => {
  it("delivers every acknowledged response after the server is killed and started again", async () => {
    const dataDir = join(root, `data-${kind}`);
    const databaseUrl = kind === "postgres" ? await postgresUrl() : undefined;
    receiver.received.length = 0;
    const first = await startProcess(dataDir, databaseUrl);
    const key = (await readFile(join(dataDir, "api-key"), "utf8")).trim();
    const api = (url: string, method: string, path: string, body?: unknown) =>
      fetch(`${url}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
    const created = await api(first.url, "POST", "/api/forms", {
      title: "Crash",
      slug: `crash-${kind}`,
      humanness: false,
      fields: [{ id: "name", type: "text", label: "Name" }],
    });
    expect(created.status).toBe(201);
    const hook = (await (
      await api(first.url, "POST", `/api/forms/crash-${kind}/webhooks`, { url: receiver.url })
    ).json()) as { secret: string };
    receiver.secret = hook.secret;
    // the receiver takes every request and never answers: nothing gets through before the kill
    receiver.behave(() => "hang");
    const ids = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const res = await fetch(`${first.url}/api/forms/crash-${kind}/submit`, {
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
    await startProcess(dataDir, databaseUrl);
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
