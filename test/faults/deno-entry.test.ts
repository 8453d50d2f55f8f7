// The Deno entry through the Supabase function layout (supabase/functions/formdown/index.ts)
// as a real process on Postgres (SPEC §17): `/formdown` stripped; beside a Node server on the
// same database, one client is one bucket whatever the left of X-Forwarded-For says; and SIGTERM
// stops it gracefully (listener closed, 503 on a kept-alive connection, the request in flight
// answered, exit 0). With FORMDOWN_DRAIN_MS 8000 it takes late requests for the first 4 s (the
// drain less a submit's budget, capped at half) and answers 503 after, while the last request
// in flight still finishes.
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChildServer, startChild } from "./child-server.ts";
import { sleep, spawnDenoEntry } from "./common.ts";
import { FAULT_FORM } from "./load.ts";
import { freePort } from "./pg-cluster.ts";
import { open, readAnswer, refused, request } from "./raw-http.ts";

const pg = process.env.TEST_DATABASE_URL;
const ADMIN = "deno-entry-admin";

describe.each(pg ? ["postgres"] : [])("the Deno entry (Supabase layout) on %s", () => {
  const name = `formdown_deno_entry_${process.pid}_${Date.now()}`;
  const admin = postgres(pg ?? "", { max: 1, onnotice: () => {} });
  const dataDir = mkdtempSync(join(tmpdir(), "formdown-deno-entry-"));
  let deno: ChildProcess;
  let denoUrl = "";
  let node: ChildServer;
  let db: postgres.Sql;
  let key = "";
  const env = (dbUrl: string) => ({
    DATABASE_URL: dbUrl,
    FORMDOWN_ADMIN_TOKEN: ADMIN,
    FORMDOWN_RATE_SUBMIT: "6",
    FORMDOWN_RATE_SYNC_MS: "20",
    FORMDOWN_TRUSTED_PROXIES: "1",
    FORMDOWN_DRAIN_MS: "8000",
  });

  beforeAll(async () => {
    await admin.unsafe(`create database ${name}`);
    const u = new URL(pg!);
    u.pathname = `/${name}`;
    db = postgres(u.toString(), { max: 1, onnotice: () => {} });
    node = await startChild({ dataDir, env: env(u.toString()) });
    const port = await freePort();
    deno = spawnDenoEntry(
      port,
      {
        // never the checkout: a form it creates would be committed into this repository
        FORMDOWN_REPO_DIR: mkdtempSync(join(tmpdir(), "formdown-deno-repo-")),
        ...env(u.toString()),
      },
      "inherit",
    );
    await new Promise<void>((resolve, reject) => {
      deno.stdout!.on("data", (d: Buffer) => /URL /.test(d.toString()) && resolve());
      deno.once("exit", (code) => reject(new Error(`deno exited ${code}`)));
    });
    denoUrl = `http://127.0.0.1:${port}/formdown`;
    const account = await fetch(`${node.url}/api/accounts`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
      body: JSON.stringify({ handler: "edge", email: "edge@example.com" }),
    });
    key = ((await account.json()) as { api_key: string }).api_key;
    const form = await fetch(`${denoUrl}/api/forms`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify(FAULT_FORM),
    });
    expect(form.status).toBe(201);
  }, 180_000);

  afterAll(async () => {
    if (deno?.exitCode === null) deno.kill("SIGKILL");
    await node?.stop();
    await db?.end();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("serves the API under the function's name, /formdown stripped", async () => {
    const res = await fetch(`${denoUrl}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true });
  });

  it("puts one client in one bucket on Node and Deno, whatever the left of X-Forwarded-For says", async () => {
    // not across a minute's end: the limit counts per minute
    while (Date.now() % 60_000 > 45_000) await sleep(500);
    const statuses: number[] = [];
    for (let i = 0; i < 16; i++) {
      const res = await fetch(`${i % 2 ? denoUrl : node.url}/api/forms/faults/submit`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-forwarded-for": `198.51.100.${i}, 203.0.113.77`,
        },
        body: JSON.stringify({ fields: { note: `spoof ${i}` } }),
      });
      await res.arrayBuffer();
      statuses.push(res.status);
      await sleep(150);
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(6);
    expect(statuses.slice(6).every((s) => s === 429)).toBe(true);
    await sleep(500);
    const rows = await db<{ bucket: string }[]>`
      select distinct bucket from rate_limits where bucket like 'submit:faults:%'`;
    expect(rows.map((r) => r.bucket)).toEqual(["submit:faults:203.0.113.77"]);
  });

  it("stops gracefully on SIGTERM", async () => {
    const kept = await open(denoUrl);
    kept.write(request("GET", `${denoUrl}/api/health`));
    expect((await readAnswer(kept)).status).toBe(200);
    const keptForSubmit = await open(denoUrl);
    keptForSubmit.write(request("GET", `${denoUrl}/api/health`));
    expect((await readAnswer(keptForSubmit)).status).toBe(200);
    const keptForLater = await open(denoUrl);
    keptForLater.write(request("GET", `${denoUrl}/api/health`));
    expect((await readAnswer(keptForLater)).status).toBe(200);
    const slow = await open(denoUrl);
    const body = JSON.stringify({ fields: { note: "in flight" } });
    slow.write(
      request(
        "POST",
        `${denoUrl}/api/forms/faults/submit`,
        body,
        "X-Forwarded-For: 203.0.113.9\r\n",
      ).slice(0, -10),
    );
    await sleep(300);
    const exited = new Promise<number | null>((r) => deno.once("exit", (c) => r(c)));
    deno.kill("SIGTERM");
    await sleep(300);
    kept.write(request("GET", `${denoUrl}/api/health`));
    const late = await readAnswer(kept);
    // a submit on a connection kept alive is served, and told to close its connection
    const lateBody = JSON.stringify({ fields: { note: "late" } });
    keptForSubmit.write(
      request(
        "POST",
        `${denoUrl}/api/forms/faults/submit`,
        lateBody,
        "X-Forwarded-For: 203.0.113.10\r\n",
      ),
    );
    const lateSubmit = await readAnswer(keptForSubmit);
    // requests still come (no load balancer took the instance out) and one is in flight: past the
    // first half of the drain a late submit is answered 503 with Retry-After, never taken in to
    // be cut when the process exits
    await sleep(4500);
    keptForLater.write(
      request(
        "POST",
        `${denoUrl}/api/forms/faults/submit`,
        JSON.stringify({ fields: { note: "later" } }),
        "X-Forwarded-For: 203.0.113.11\r\n",
      ),
    );
    const laterSubmit = await readAnswer(keptForLater);
    slow.write(body.slice(-10));
    const inFlight = await readAnswer(slow);
    expect(late.status).toBe(503);
    expect(JSON.parse(late.body).code).toBe("unavailable");
    expect(late.headers.connection).toBe("close");
    expect(late.headers["retry-after"]).toBeTruthy();
    expect(lateSubmit.status).toBe(201);
    expect(lateSubmit.headers.connection).toBe("close");
    expect(laterSubmit.status).toBe(503);
    expect(JSON.parse(laterSubmit.body).code).toBe("unavailable");
    expect(laterSubmit.headers["retry-after"]).toBeTruthy();
    expect(laterSubmit.headers.connection).toBe("close");
    expect(inFlight.status).toBe(201);
    expect(await exited).toBe(0);
    expect(await refused(denoUrl)).toBe(true);
    const stored = await db<{ note: string }[]>`
      select payload ->> 'note' as note from responses
       where payload ->> 'note' in ('in flight', 'late', 'later') order by 1`;
    expect(stored.map((r) => r.note)).toEqual(["in flight", "late"]);
  }, 60_000);
});
