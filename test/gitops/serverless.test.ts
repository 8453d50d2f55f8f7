import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOOLS } from "../../functions/mcp/registry.ts";
import { bundleDeno } from "../../functions/node/deno-bundle.ts";
import { freePort } from "../faults/pg-cluster.ts";
import { client } from "../helpers/api.ts";

const root = new URL("../../", import.meta.url).pathname;
const deno = `${root}node_modules/.bin/deno`;
const pg = process.env.TEST_DATABASE_URL;

it("brings the Deno runtime (Supabase Edge Functions, Deno Deploy) as an npm package", () => {
  expect(execFileSync(deno, ["--version"]).toString()).toMatch(/^deno 2\./);
});

it("starts the edge function without the owner's side: no zod, YAML parsers or MCP until asked", () => {
  // the modules a cold start evaluates: static imports only (a dynamic one loads when it runs)
  const info = JSON.parse(
    execFileSync(deno, ["info", "--json", "supabase/functions/formdown/index.ts"], {
      cwd: root,
    }).toString(),
  ) as {
    roots: string[];
    modules: {
      specifier: string;
      dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
    }[];
  };
  const deps = new Map(info.modules.map((m) => [m.specifier, m.dependencies ?? []]));
  const loaded = new Set(info.roots);
  for (const s of loaded)
    for (const d of deps.get(s) ?? []) if (d.code && !d.isDynamic) loaded.add(d.code.specifier);
  const heavy = [...loaded].filter((s) =>
    /node_modules\/(zod|gray-matter|yaml|@modelcontextprotocol)\/|owner-app\.ts|src\/core\/locales\//.test(
      s,
    ),
  );
  expect(heavy).toEqual([]);
  // a bound that grows only with the respondent path itself (invites, partials, the audit hook)
  expect(loaded.size).toBeLessThan(110);
});

// from its .ts files in the checkout, and bundled as `npm run build:deno` bundles it, run from a
// directory of its own on a new database: the bundle carries the migrations it applies
const entries = [
  {
    as: "from its .ts files",
    dir: root,
    main: "functions/deno/main.ts",
    drain: "functions/deno/drain.ts",
    supabaseDrain: "supabase/functions/formdown-drain/index.ts",
  },
  {
    as: "bundled",
    dir: "",
    main: "main.js",
    drain: "drain.js",
    supabaseDrain: "supabase-drain.js",
  },
];

describe.each(pg ? entries : [])("the serverless entry on Deno, $as, against Postgres", (entry) => {
  let child: ChildProcess;
  let url = "";
  let dbUrl = "";
  const name = `formdown_deno_${entry.dir ? "ts" : "bundle"}_${Date.now()}`;
  const admin = postgres(pg ?? "", { max: 1, onnotice: () => {} });
  const env = () => ({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: dbUrl,
    FORMDOWN_ADMIN_TOKEN: "admin-secret",
    FORMDOWN_RATE_SUBMIT: "0",
    FORMDOWN_RATE_API: "0",
    FORMDOWN_REPO_DIR: `/tmp/${name}`,
    FORMDOWN_DATA_DIR: `/tmp/${name}/data`,
  });

  beforeAll(async () => {
    await admin.unsafe(`create database ${name}`);
    const u = new URL(pg!);
    u.pathname = `/${name}`;
    dbUrl = u.toString();
    if (!entry.dir) {
      entry.dir = mkdtempSync(join(tmpdir(), "formdown-deno-bundle-"));
      await bundleDeno(entry.dir);
    }
    child = spawn(deno, ["run", "-A", entry.main], {
      cwd: entry.dir,
      env: { ...env(), PORT: "0" },
    });
    url = await new Promise<string>((resolve, reject) => {
      child.stdout!.on("data", (d: Buffer) => {
        const m = /URL (\S+)/.exec(d.toString());
        if (m) resolve(m[1]!);
      });
      child.once("exit", (code) => reject(new Error(`deno exited ${code}`)));
    });
  }, 120_000);
  afterAll(async () => {
    child?.kill();
    await admin.unsafe(`drop database if exists ${name} with (force)`);
    await admin.end();
    if (entry.dir !== root) rmSync(entry.dir, { recursive: true, force: true });
  });

  it("serves accounts, forms, submits and both read variants", async () => {
    const anon = client(url);
    const account = await anon("POST", "/api/accounts", {
      key: "admin-secret",
      body: { handler: "edge", email: "edge@example.com" },
    });
    expect(account.status).toBe(201);
    const api = client(url, account.body.api_key);
    expect(
      (
        await api("POST", "/api/forms", {
          body: {
            title: "Edge",
            slug: "edge",
            humanness: false,
            notifications: { email: ["o@example.com"] },
            fields: [{ id: "q", type: "text" }],
          },
        })
      ).status,
    ).toBe(201);
    const sent = await api("POST", "/api/forms/edge/submit", {
      key: null,
      body: { fields: { q: "from deno" } },
    });
    expect(sent.status).toBe(201);
    expect((await api("GET", "/api/forms/edge/responses")).body.responses[0].payload).toEqual({
      q: "from deno",
    });
    expect((await api("GET", "/api/forms/edge/submissions")).body.total).toBe(1);
    // the exports stream COPY's fields through the line writers (node:buffer under Deno)
    const exported = async (format: string) => {
      const res = await fetch(`${url}/api/forms/edge/responses/export?format=${format}`, {
        headers: { authorization: `Bearer ${account.body.api_key}` },
      });
      expect(res.status).toBe(200);
      return res.text();
    };
    expect((await exported("csv")).split("\r\n")[1]).toMatch(
      /^[0-9a-f-]{36},\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z,from deno$/,
    );
    expect(JSON.parse(await exported("json"))).toMatchObject([{ payload: { q: "from deno" } }]);
    expect(await exported("markdown")).toContain("| from deno |");
    const mcp = await fetch(`${url}/api/mcp`, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        authorization: `Bearer ${account.body.api_key}`,
      },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(((await mcp.json()) as { result: { tools: unknown[] } }).result.tools).toHaveLength(
      TOOLS.length,
    );
  });

  it("drains the outbox from the scheduled entry", () => {
    const out = execFileSync(deno, ["run", "-A", entry.drain], {
      cwd: entry.dir,
      env: env(),
    }).toString();
    expect(JSON.parse(out.trim().split("\n").at(-1)!)).toEqual({
      sent: 1,
      failed: 0,
      webhooks: { delivered: 0, retrying: 0, failed: 0 },
      unfinished: false,
      retention_deleted: 0,
    });
  });

  it("serves the Supabase drain function on PORT, to the admin token's bearer only", async () => {
    const port = await freePort();
    const drain = spawn(deno, ["run", "-A", entry.supabaseDrain], {
      cwd: entry.dir,
      env: { ...env(), PORT: String(port) },
    });
    try {
      const said = await new Promise<string>((resolve, reject) => {
        drain.stdout!.on("data", (d: Buffer) => {
          const m = /URL (\S+)/.exec(d.toString());
          if (m) resolve(m[1]!);
        });
        drain.once("exit", (code) => reject(new Error(`deno exited ${code}`)));
      });
      expect(said).toBe(`http://127.0.0.1:${port}`);
      const refused = await fetch(said, { method: "POST" });
      expect(refused.status).toBe(401);
      expect(await refused.json()).toMatchObject({ code: "unauthorized" });
      const ran = await fetch(said, {
        method: "POST",
        headers: { authorization: "Bearer admin-secret" },
      });
      expect(ran.status).toBe(200);
      expect(await ran.json()).toMatchObject({ sent: 0, failed: 0, unfinished: false });
    } finally {
      drain.kill("SIGKILL");
    }
  });
});
