// SIGTERM of a real Node server (`node functions/node/start.ts`, SPEC §17): the listener closes
// at once, a submit on a kept-alive connection is served (201) with Connection: close, the
// health probe answers 503 `unavailable` with Retry-After, a request in flight is answered, the webhook attempt under way has its
// outcome recorded, and the process exits 0. Started again, it never sends that delivery twice.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type ChildServer, firstKey, startChild } from "./child-server.ts";
import { createForm, sleep } from "./common.ts";
import { open, type RawAnswer, readAnswer, refused, request } from "./raw-http.ts";
import { startSlowReceiver } from "./slow-receiver.ts";

const dataDir = mkdtempSync(join(tmpdir(), "formdown-graceful-"));
const repoDir = mkdtempSync(join(tmpdir(), "formdown-graceful-repo-"));
const env = { FORMDOWN_WEBHOOK_TIMEOUT_MS: "4000", FORMDOWN_DRAIN_MS: "8000" };
let receiver: Awaited<ReturnType<typeof startSlowReceiver>>;
let server: ChildServer;
let again: ChildServer | null = null;
let exitCode: number | null = null;
let late: RawAnswer;
let lateSubmit: RawAnswer;
let closedAfter = false;
let inFlight: RawAnswer;
let listenerClosed = false;
let key = "";

const until = async (what: () => boolean | Promise<boolean>, ms = 60_000) => {
  const end = Date.now() + ms;
  while (!(await what())) {
    if (Date.now() > end) throw new Error("timed out");
    await sleep(100);
  }
};

beforeAll(async () => {
  receiver = await startSlowReceiver();
  server = await startChild({ dataDir, repoDir, env });
  key = firstKey(dataDir);
  await createForm(server.url, key);
  const hook = await fetch(`${server.url}/api/forms/faults/webhooks`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ url: receiver.url }),
  });
  expect(hook.status).toBe(201);
  const first = await fetch(`${server.url}/api/forms/faults/submit`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ fields: { note: "before" } }),
  });
  expect(first.status).toBe(201);
  // the delivery is under way: the receiver holds it
  await until(() => receiver.held() === 1);

  const kept = await open(server.url);
  kept.write(request("GET", `${server.url}/api/health`));
  expect((await readAnswer(kept)).status).toBe(200);
  const keptForSubmit = await open(server.url);
  keptForSubmit.write(request("GET", `${server.url}/api/health`));
  expect((await readAnswer(keptForSubmit)).status).toBe(200);
  const slow = await open(server.url);
  const body = JSON.stringify({ fields: { note: "in flight" } });
  slow.write(request("POST", `${server.url}/api/forms/faults/submit`, body).slice(0, -10));
  await sleep(300);

  const exited = new Promise<number | null>((r) => server.child.once("exit", (c) => r(c)));
  server.child.kill("SIGTERM");
  await sleep(500);
  listenerClosed = await refused(server.url);
  kept.write(request("GET", `${server.url}/api/health`));
  late = await readAnswer(kept);
  const lateBody = JSON.stringify({ fields: { note: "late" } });
  const gone = new Promise<boolean>((r) => keptForSubmit.once("close", () => r(true)));
  keptForSubmit.write(request("POST", `${server.url}/api/forms/faults/submit`, lateBody));
  lateSubmit = await readAnswer(keptForSubmit);
  keptForSubmit.resume();
  closedAfter = await Promise.race([gone, sleep(5000).then(() => false)]);
  slow.write(body.slice(-10));
  inFlight = await readAnswer(slow);
  // the receiver answers the attempt under way while the server is stopping
  await sleep(500);
  receiver.release();
  exitCode = await exited;
  again = await startChild({ dataDir, repoDir, env });
  // past the lease (timeout + 5 s): a delivery whose outcome was lost would be sent again now
  await sleep(12_000);
}, 240_000);

afterAll(async () => {
  await again?.stop();
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(repoDir, { recursive: true, force: true });
});

it("closes its listener at once on SIGTERM", () => {
  expect(listenerClosed).toBe(true);
});

it("serves a submit on a kept-alive connection, with Connection: close, and the server closes it", () => {
  expect(lateSubmit.status).toBe(201);
  expect(lateSubmit.headers.connection).toBe("close");
  expect(closedAfter).toBe(true);
});

it("answers the health probe 503 unavailable, Connection: close, Retry-After", () => {
  expect(late.status).toBe(503);
  expect(JSON.parse(late.body).code).toBe("unavailable");
  expect(late.headers.connection).toBe("close");
  expect(Number(late.headers["retry-after"])).toBeGreaterThan(0);
});

it("finishes the request in flight and exits 0", () => {
  expect(inFlight.status).toBe(201);
  expect(exitCode).toBe(0);
});

it("recorded the webhook attempt under way: started again, nothing is sent twice", async () => {
  const res = await fetch(`${again!.url}/api/forms/faults/webhooks`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const [hook] = ((await res.json()) as { webhooks: { id: string }[] }).webhooks;
  const log = await fetch(`${again!.url}/api/forms/faults/webhooks/${hook!.id}/deliveries`, {
    headers: { authorization: `Bearer ${key}` },
  });
  const body = (await log.json()) as { deliveries: { status: string }[] };
  // the two submits before the stop and the late one: each delivered once
  expect(body.deliveries.map((d) => d.status)).toEqual(["delivered", "delivered", "delivered"]);
  expect([...receiver.byId.values()]).toEqual([1, 1, 1]);
});
