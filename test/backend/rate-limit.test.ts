// The rate limiter as a user meets it (SPEC §9): counts in each instance's memory, shared through
// the database once per sync interval. Real servers over real databases; the database handle is
// wrapped only to see which statements reach it.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import type { Env } from "../../functions/config.ts";
import { type Db, openPostgres } from "../../functions/db/db.ts";
import { migrate } from "../../functions/db/migrate.ts";
import { type RunningServer, startServer } from "../../functions/node/server.ts";
import { createAccount } from "../../functions/services/accounts.ts";
import { client } from "../helpers/api.ts";
import { DB_KINDS, freshDb } from "../helpers/db.ts";
import { freshWindow } from "../helpers/windows.ts";

/**
 * A Db that records every statement sent through it. `insertDelayMs` holds each INSERT of a
 * response that long before it goes out, as a busy database would: the submits that arrive
 * meanwhile queue, whatever the speed of the machine.
 */
function recorded(inner: Db): Db & { statements: string[]; insertDelayMs: number } {
  const statements: string[] = [];
  const db = {
    statements,
    insertDelayMs: 0,
    kind: inner.kind,
    async query(text: string, params?: unknown[], options?: object) {
      statements.push(text);
      if (db.insertDelayMs && text.startsWith("insert into responses"))
        await new Promise((r) => setTimeout(r, db.insertDelayMs));
      return inner.query(text, params, options);
    },
    exec: (script: string) => inner.exec(script),
    close: () => inner.close(),
  };
  return db as Db & typeof db;
}

const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of cleanups.reverse()) await c().catch(() => {});
});

async function serve(db: Db, env: Env): Promise<RunningServer> {
  const dir = await mkdtemp(join(tmpdir(), "formdown-limit-"));
  const server = await startServer({
    env: {
      FORMDOWN_DATA_DIR: dir,
      FORMDOWN_REPO_DIR: dir,
      FORMDOWN_RATE_SYNC_MS: "100",
      // closes at once: no kept-alive connection waited for (10 s each otherwise)
      FORMDOWN_DRAIN_MS: "0",
      // clients told apart by X-Forwarded-For, as behind one proxy
      FORMDOWN_TRUSTED_PROXIES: "1",
      ...env,
    },
    db,
    port: 0,
    host: "127.0.0.1",
    skipRepositoryForms: true,
    outboxSender: false,
    webhookSender: false,
    log: { info() {}, error: (m, e) => console.error(m, e) },
  });
  cleanups.push(async () => {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  });
  return server;
}

let n = 0;
/** A new account and a plain form on `server`; returns the key and the submit path. */
async function plainForm(server: RunningServer) {
  const { api_key } = await createAccount(server.ctx, { handler: `limit-${Date.now()}-${n++}` });
  const slug = `limited-${Date.now()}-${n++}`;
  const res = await client(server.url, api_key)("POST", "/api/forms", {
    body: { title: "Limited", slug, humanness: false, fields: [{ id: "a", type: "text" }] },
  });
  expect(res.status).toBe(201);
  return { key: api_key, submit: `/api/forms/${slug}/submit` };
}

const post = (url: string, path: string, ip = "203.0.113.7") =>
  fetch(`${url}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": ip },
    body: JSON.stringify({ fields: { a: "x" } }),
  });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const isLimitRow = (text: string) => text.includes("rate_limits");

describe.each(DB_KINDS)("the submit limiter on one server (%s)", (kind) => {
  it("refuses past the limit with 429 and Retry-After, and a refusal touches no table", async () => {
    const fresh = await freshDb(kind);
    cleanups.push(fresh.drop);
    const db = recorded(fresh.db);
    await freshWindow();
    // (the API limit off: its bucket, under its limit, would be read back at each flush)
    const server = await serve(db, { FORMDOWN_RATE_SUBMIT: "5", FORMDOWN_RATE_API: "0" });
    const { submit } = await plainForm(server);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await post(server.url, submit)).status);
    expect(statuses).toEqual([201, 201, 201, 201, 201]);
    await sleep(250); // the five hits have been flushed
    db.statements.length = 0;
    for (let i = 0; i < 20; i++) {
      const res = await post(server.url, submit);
      expect(res.status).toBe(429);
      expect(await res.json()).toMatchObject({ code: "rate_limited" });
      const retry = Number(res.headers.get("retry-after"));
      expect(retry).toBeGreaterThanOrEqual(1);
      expect(retry).toBeLessThanOrEqual(60);
    }
    await sleep(250); // past two sync intervals: refusals left nothing to flush
    expect(db.statements).toEqual([]);
    // another client address has its own count
    expect((await post(server.url, submit, "198.51.100.1")).status).toBe(201);
    const [row] = await fresh.db.query<{ n: number }>("select count(*)::int as n from responses");
    expect(row!.n).toBe(6);
  });

  it("adds no statement to an allowed submit, and concurrent submits share one INSERT", async () => {
    const fresh = await freshDb(kind);
    cleanups.push(fresh.drop);
    const db = recorded(fresh.db);
    await freshWindow();
    const server = await serve(db, { FORMDOWN_RATE_SUBMIT: "100000" });
    const { submit } = await plainForm(server);
    expect((await post(server.url, submit)).status).toBe(201); // the form is now cached
    db.statements.length = 0;
    const started = performance.now();
    for (let i = 0; i < 20; i++) expect((await post(server.url, submit)).status).toBe(201);
    const elapsed = performance.now() - started;
    const submits = db.statements.filter((t) => !isLimitRow(t));
    expect(submits).toHaveLength(20); // one INSERT each, as with the limiter off
    expect(db.statements.filter(isLimitRow).length).toBeLessThanOrEqual(elapsed / 100 + 2);
    db.statements.length = 0;
    // on Postgres the submits that arrive while a statement is out share the next INSERT: each
    // is held 30 ms, so they queue on a quiet machine too (PGlite in this same process runs each
    // to the end before the next request is read)
    if (kind === "postgres") db.insertDelayMs = 30;
    const answers = await Promise.all(
      Array.from({ length: 100 }, (_, i) => post(server.url, submit, `10.0.0.${i}`)),
    );
    expect(answers.map((r) => r.status)).toEqual(Array(100).fill(201));
    // each went through the plain path (submit-write.ts): alone or in a shared INSERT, never
    // the old CTE that counted the hit in the database
    const inserts = db.statements.filter((t) => t.includes("insert into responses"));
    expect(inserts.every((t) => t.startsWith("insert into responses"))).toBe(true);
    if (kind === "postgres") {
      expect(inserts.length).toBeLessThan(100);
      expect(inserts.some((t) => t.includes("unnest("))).toBe(true);
    }
  });

  it("limits the API per key in memory: a refused call reads no table", async () => {
    const fresh = await freshDb(kind);
    cleanups.push(fresh.drop);
    const db = recorded(fresh.db);
    await freshWindow();
    const server = await serve(db, { FORMDOWN_RATE_API: "4" });
    const { key } = await plainForm(server); // the POST counted as the first call
    const api = client(server.url, key);
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await api("GET", "/api/forms")).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    await sleep(250);
    db.statements.length = 0;
    const refused = await api("GET", "/api/forms");
    expect([refused.status, refused.body.code]).toEqual([429, "rate_limited"]);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    await sleep(250);
    expect(db.statements).toEqual([]);
    // a made-up key is still a 401, and leaves no counter behind
    const wrong = await client(server.url, "fd_not_a_key")("GET", "/api/forms");
    expect(wrong.status).toBe(401);
    await sleep(250);
    const buckets = await fresh.db.query(
      "select bucket from rate_limits where bucket like 'api:%'",
    );
    // (only the real key's bucket; PGlite keeps its counts in memory, so none there)
    expect(buckets).toHaveLength(kind === "postgres" ? 1 : 0);
  });
});

describe.each(process.env.TEST_DATABASE_URL ? ["postgres"] : [])(
  "two servers over one %s database",
  () => {
    it("hold one limit between them within one sync interval", async () => {
      const url = new URL(process.env.TEST_DATABASE_URL!);
      const name = `formdown_limit_${Date.now()}`;
      const admin = postgres(url.toString(), { max: 1, onnotice: () => {} });
      await admin.unsafe(`create database ${name}`);
      url.pathname = `/${name}`;
      const one = openPostgres(url.toString());
      const two = recorded(openPostgres(url.toString()));
      await migrate(one);
      cleanups.push(async () => {
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      });
      const env = { DATABASE_URL: url.toString(), FORMDOWN_RATE_SUBMIT: "10" };
      const a = await serve(one, env);
      const b = await serve(two, env);
      const { submit } = await plainForm(a);
      await freshWindow();
      // between flushes each instance decides alone: 6 + 6 get through a limit of 10
      const first = await Promise.all([
        ...Array.from({ length: 6 }, () => post(a.url, submit)),
        ...Array.from({ length: 6 }, () => post(b.url, submit)),
      ]);
      expect(first.map((r) => r.status)).toEqual(Array(12).fill(201));
      // one interval later both know the total and both refuse, without a statement
      await sleep(300);
      two.statements.length = 0;
      for (const s of [a, b, a, b]) {
        const res = await post(s.url, submit);
        expect(res.status).toBe(429);
        expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      }
      expect(two.statements).toEqual([]);
      const [shared] = await one.query<{ hits: number }>(
        "select sum(hits)::int as hits from rate_limits where bucket like 'submit:%'",
      );
      expect(shared!.hits).toBe(12);
      const [rows] = await one.query<{ n: number }>("select count(*)::int as n from responses");
      expect(rows!.n).toBe(12);
    });

    it("let one client past the limit by at most what the instances took in one interval", async () => {
      const url = new URL(process.env.TEST_DATABASE_URL!);
      const name = `formdown_limit_${Date.now()}_b`;
      const admin = postgres(url.toString(), { max: 1, onnotice: () => {} });
      await admin.unsafe(`create database ${name}`);
      url.pathname = `/${name}`;
      const one = openPostgres(url.toString());
      await migrate(one);
      cleanups.push(async () => {
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      });
      const env = { DATABASE_URL: url.toString(), FORMDOWN_RATE_SUBMIT: "30" };
      const a = await serve(one, env);
      const b = await serve(openPostgres(url.toString()), env);
      const { submit } = await plainForm(a);
      await freshWindow();
      // a steady trickle alternating between the instances for over a second
      let accepted = 0;
      const until = performance.now() + 1500;
      let i = 0;
      while (performance.now() < until) {
        const res = await post((i++ % 2 ? a : b).url, submit);
        if (res.status === 201) accepted++;
        else expect(res.status).toBe(429);
        await sleep(5);
      }
      const perInterval = Math.ceil(i / 15); // requests that arrive within one 100 ms interval
      expect(accepted).toBeGreaterThanOrEqual(30);
      expect(accepted).toBeLessThanOrEqual(30 + perInterval);
    });
  },
);

describe.each(process.env.TEST_DATABASE_URL ? ["postgres"] : [])(
  "the serverless entry (Deno) over %s",
  () => {
    it("limits in memory and shares the counts from the requests themselves, without timers", async () => {
      const { spawn } = await import("node:child_process");
      const url = new URL(process.env.TEST_DATABASE_URL!);
      const name = `formdown_limit_deno_${Date.now()}`;
      const admin = postgres(url.toString(), { max: 1, onnotice: () => {} });
      await admin.unsafe(`create database ${name}`);
      url.pathname = `/${name}`;
      const dir = await mkdtemp(join(tmpdir(), "formdown-limit-deno-"));
      const root = new URL("../../", import.meta.url).pathname;
      const child = spawn(
        `${root}node_modules/.bin/deno`,
        ["run", "-A", "functions/deno/main.ts"],
        {
          cwd: root,
          env: {
            PATH: process.env.PATH,
            HOME: process.env.HOME,
            PORT: "0",
            DATABASE_URL: url.toString(),
            FORMDOWN_ADMIN_TOKEN: "admin-secret",
            FORMDOWN_RATE_SUBMIT: "3",
            FORMDOWN_RATE_SYNC_MS: "50",
            FORMDOWN_TRUSTED_PROXIES: "1",
            FORMDOWN_REPO_DIR: dir,
            FORMDOWN_DATA_DIR: join(dir, "data"),
          },
        },
      );
      cleanups.push(async () => {
        child.kill();
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
        await rm(dir, { recursive: true, force: true });
      });
      const base = await new Promise<string>((resolve, reject) => {
        child.stdout!.on("data", (d: Buffer) => {
          const m = /URL (\S+)/.exec(d.toString());
          if (m) resolve(m[1]!);
        });
        child.once("exit", (code) => reject(new Error(`deno exited ${code}`)));
      });
      const account = await client(base, "admin-secret")("POST", "/api/accounts", {
        body: { handler: "edge-limit" },
      });
      const slug = `edge-${Date.now()}`;
      await client(base, account.body.api_key)("POST", "/api/forms", {
        body: { title: "Edge", slug, humanness: false, fields: [{ id: "a", type: "text" }] },
      });
      await freshWindow();
      const submit = `/api/forms/${slug}/submit`;
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await post(base, submit)).status);
      expect(statuses).toEqual([201, 201, 201, 429]);
      // the next allowed request after the interval carries the flush (no timer runs here)
      await sleep(100);
      expect((await post(base, submit, "198.51.100.9")).status).toBe(201);
      await sleep(200);
      const own = postgres(url.toString(), { max: 1, onnotice: () => {} });
      const [hits] =
        await own`select hits from rate_limits where bucket = ${`submit:${slug}:203.0.113.7`}`;
      await own.end();
      expect(hits).toEqual({ hits: 3 });
    });
  },
);
