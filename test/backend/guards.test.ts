import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import SwaggerParser from "@apidevtools/swagger-parser";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lockDataDir } from "../../functions/db/lock.ts";
import { openApiDocument } from "../../functions/openapi.ts";
import { startTurnstileFake } from "../fakes/turnstile.ts";
import { client } from "../helpers/api.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const ID = "00000000-0000-4000-8000-000000000000";
const redoclyCli = createRequire(import.meta.url).resolve("@redocly/cli/bin/cli.js");
/** Every key-protected endpoint, and whether it names one form (so another account gets 403). */
const PROTECTED: [string, string, boolean, unknown?][] = [
  ["GET", "/api/forms", false],
  ["POST", "/api/forms", false, { title: "T", slug: "t-x", fields: [{ id: "a", type: "text" }] }],
  ["GET", "/api/forms/mine", true],
  ["PATCH", "/api/forms/mine", true, { title: "x" }],
  [
    "PUT",
    "/api/forms/mine",
    true,
    { title: "T", slug: "mine", fields: [{ id: "a", type: "text" }] },
  ],
  ["PUT", "/api/forms/mine/access", true, { mode: "public" }],
  ["GET", "/api/forms/mine/responses", true],
  ["GET", "/api/forms/mine/submissions", true],
  ["GET", `/api/forms/mine/responses/${ID}`, true],
  ["GET", `/api/forms/mine/submissions/${ID}`, true],
  ["GET", "/api/keys", false],
  ["POST", "/api/keys", false],
  ["DELETE", "/api/forms/mine", true],
];

describe("guards", () => {
  let s: TestServer;
  let api: ReturnType<typeof client>;
  let other: string;
  beforeAll(async () => {
    s = await startTestServer();
    api = client(s.url, s.apiKey);
    other = await s.otherKey();
    await api("POST", "/api/forms", {
      body: { title: "Mine", slug: "mine", humanness: false, fields: [{ id: "a", type: "text" }] },
    });
  });
  afterAll(() => s?.close());

  it.each(PROTECTED)(
    "%s %s: 401 without a key or with a bad one, 403 for another account's form",
    async (method, path, owned, body) => {
      const none = await api(method, path, { key: null, body });
      expect([none.status, none.body.code]).toEqual([401, "unauthorized"]);
      const bad = await api(method, path, { key: "fd_not-a-real-key", body });
      expect([bad.status, bad.body.code]).toEqual([401, "unauthorized"]);
      if (owned) {
        const foreign = await api(method, path, { key: other, body });
        expect([foreign.status, foreign.body.code]).toEqual([403, "forbidden"]);
      }
    },
  );

  it("creates and revokes keys; a revoked key stops working", async () => {
    const created = await api("POST", "/api/keys", { body: { name: "ci" } });
    expect(created.body.api_key).toMatch(/^fd_[A-Za-z0-9_-]{40,}$/);
    expect((await api("GET", "/api/forms", { key: created.body.api_key })).status).toBe(200);
    const stored = await s.ctx.db.query<{ hash: string }>(
      "select hash from api_keys where id = $1",
      [created.body.id],
    );
    expect(stored[0]!.hash).not.toContain(created.body.api_key);
    expect((await api("DELETE", `/api/keys/${created.body.id}`)).status).toBe(204);
    expect((await api("GET", "/api/forms", { key: created.body.api_key })).status).toBe(401);
    expect((await api("DELETE", `/api/keys/${created.body.id}`, { key: other })).status).toBe(403);
  });

  it("answers 404 to account creation without an admin token", async () => {
    const res = await api("POST", "/api/accounts", { key: "anything", body: { handler: "x" } });
    expect([res.status, res.body.code]).toEqual([404, "not_found"]);
  });

  it("never answers a malformed create or submit with a 5xx, and stays healthy", async () => {
    // strings of any code point, NUL and lone surrogates included
    const value = fc.jsonValue({ stringUnit: "binary" });
    const json = fc.oneof(
      value,
      fc.record({ title: value, slug: value, fields: value }),
      fc.record({ fields: value, turnstile_token: value }),
    );
    await fc.assert(
      fc.asyncProperty(
        json,
        fc.constantFrom("/api/forms", "/api/forms/mine/submit", "/api/forms/mine/events"),
        async (body, path) => {
          const res = await api("POST", path, {
            body,
            key: path === "/api/forms" ? s.apiKey : null,
          });
          expect(res.status).toBeGreaterThanOrEqual(200);
          expect(res.status).toBeLessThan(500);
          if (res.status >= 400) expect(typeof res.body.code).toBe("string");
        },
      ),
      { numRuns: 150 },
    );
    expect((await api("GET", "/api/health", { key: null })).status).toBe(200);
  });

  it("refuses a NUL character or a lone surrogate with 400 wherever it comes in, and stores nothing", async () => {
    const nul = "a\u0000b";
    const lone = "a\ud800b";
    const attempts: [string, string, unknown, string | null][] = [
      [
        "POST",
        "/api/forms",
        { title: nul, slug: "nul", fields: [{ id: "a", type: "text" }] },
        s.apiKey,
      ],
      ["POST", "/api/forms/mine/submit", { fields: { a: nul } }, null],
      ["POST", "/api/forms/mine/submit", { fields: { a: lone } }, null],
      ["POST", "/api/forms/mine/submit", { fields: { a: "x" }, hidden: { [lone]: "y" } }, null],
      ["POST", "/api/keys", { name: nul }, s.apiKey],
    ];
    const before = await s.ctx.db.query<{ n: number }>("select count(*)::int as n from responses");
    for (const [method, path, body, key] of attempts) {
      const res = await api(method, path, { body, key });
      expect([path, res.status, res.body.code]).toEqual([path, 400, "invalid_request"]);
    }
    const after = await s.ctx.db.query<{ n: number }>("select count(*)::int as n from responses");
    expect(after).toEqual(before);
    expect((await api("GET", "/api/forms/nul")).status).toBe(404);
  });

  it("publishes an OpenAPI 3.1 document a standard validator accepts", async () => {
    const doc = await (await fetch(`${s.url}/api/openapi.json`)).json();
    await expect(SwaggerParser.validate(structuredClone(doc))).resolves.toBeTruthy();
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys((await openApiDocument("x")).paths)).toContain("/api/forms/{slug}/submit");
  });

  it("passes Redocly lint with no error and no warning: an operationId and a 4xx on every operation", async () => {
    // the document GET /api/openapi.json serves (fetched in the test above)
    const doc = await openApiDocument(s.url);
    const ids = Object.values(doc.paths as Record<string, object>).flatMap((item: any) =>
      Object.values(item).flatMap((op: any) => (op?.responses ? [op.operationId] : [])),
    );
    expect(ids.every((id) => typeof id === "string" && id !== "")).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const dir = await mkdtemp(join(tmpdir(), "formdown-redocly-"));
    try {
      await writeFile(join(dir, "openapi.json"), JSON.stringify(doc));
      const out = execFileSync(
        process.execPath,
        [redoclyCli, "lint", "openapi.json", "--format=json"],
        {
          cwd: dir,
          env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
          encoding: "utf8",
          stdio: ["ignore", "pipe", "pipe"],
        },
      );
      const report = JSON.parse(out.slice(out.indexOf("{")));
      expect(report.problems).toEqual([]);
      expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("limits and production anti-bot", () => {
  it("rate-limits the API per key with 429 and Retry-After", async () => {
    const s = await startTestServer({ env: { FORMDOWN_RATE_API: "3" } });
    try {
      const api = client(s.url, s.apiKey);
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await api("GET", "/api/forms")).status);
      expect(statuses).toEqual([200, 200, 200, 429, 429]);
      const limited = await api("GET", "/api/forms");
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    } finally {
      await s.close();
    }
  });

  it("verifies Turnstile tokens with siteverify when a secret is set", async () => {
    const fake = await startTurnstileFake();
    const s = await startTestServer({
      env: {
        TURNSTILE_SECRET_KEY: "1x0000000000000000000000000000000AA",
        TURNSTILE_SITE_KEY: "1x00000000000000000000AA",
        TURNSTILE_VERIFY_URL: fake.url,
        FORMDOWN_RATE_SUBMIT: "100",
      },
    });
    try {
      const api = client(s.url, s.apiKey);
      await api("POST", "/api/forms", {
        body: { title: "T", slug: "ts", fields: [{ id: "a", type: "text" }] },
      });
      const ok = await api("POST", "/api/forms/ts/submit", {
        key: null,
        body: { fields: { a: "x" }, turnstile_token: "XXXX.DUMMY.TOKEN.XXXX" },
      });
      expect(ok.status).toBe(201);
      expect(fake.requests[0]).toMatchObject({
        secret: "1x0000000000000000000000000000000AA",
        response: "XXXX.DUMMY.TOKEN.XXXX",
      });
      const spent = await api("POST", "/api/forms/ts/submit", {
        key: null,
        body: { fields: { a: "x" }, turnstile_token: "XXXX.DUMMY.TOKEN.XXXX" },
      });
      expect([spent.status, spent.body.code]).toEqual([422, "captcha_failed"]);
      expect((await api("GET", "/api/challenge", { key: null })).status).toBe(404);
    } finally {
      await s.close();
      await fake.close();
    }
  });

  it("refuses a second opener of the same PGlite data directory", async () => {
    const dir = await mkdtemp(join(tmpdir(), "formdown-lock-"));
    const release = lockDataDir(dir);
    try {
      expect(() => lockDataDir(dir)).toThrow(/already open|in use/);
    } finally {
      release();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
