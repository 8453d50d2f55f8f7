// The README's split deployment (SPEC §22 "Every form has a page, wherever it came from"): the
// pages built from the operator's repository on a static host that serves files only, the Node
// server (`functions/node/start.ts`, as `npm start`) and, on Postgres, the Deno entry (Supabase
// layout) beside it on the one database. A form made over REST, one made over MCP and one
// deployed from a forms-only repository each answer 200 with the form at their `public_url`,
// `short_url` and embed within 60 s, and `formdown deploy --check` passes on each repository's
// first run, checking only what it deployed (never the bundled examples it left out).
import type { ChildProcess } from "node:child_process";
import { execFile, execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embedSnippet } from "../../cli/commands/embed.ts";
import { buildPages } from "../../functions/node/build-pages.ts";
import { type ChildServer, firstKey, startChild } from "../faults/child-server.ts";
import { ROOT, spawnDenoEntry } from "../faults/common.ts";
import { freePort } from "../faults/pg-cluster.ts";
import { connectAgent } from "../helpers/mcp-agents.ts";
import { type StaticHost, startStatic } from "../helpers/static-host.ts";

const pg = process.env.TEST_DATABASE_URL;
const ADMIN = "split-pages-admin";
const ZERO = "0".repeat(40);

const form = (slug: string, title: string) => `---
title: ${title}
slug: ${slug}
humanness: false
fields:
  - { id: answer, type: text, label: Your answer }
---
`;

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
    cwd,
    encoding: "utf8",
  }).trim();

/** `formdown deploy` as the workflows run it, in `cwd`, against `url`. */
function deploy(cwd: string, url: string, key: string) {
  return new Promise<{ code: number; out: string }>((done) => {
    execFile(
      process.execPath,
      [join(ROOT, "cli/formdown.mjs"), "deploy", "--since", ZERO, "--check"],
      {
        cwd,
        env: { PATH: process.env.PATH, HOME: cwd, FORMDOWN_URL: url, FORMDOWN_API_KEY: key },
      },
      (error, stdout, stderr) =>
        done({ code: (error as { code?: number } | null)?.code ?? 0, out: stdout + stderr }),
    );
  });
}

/** Asks until `url` answers 200 (for at most 60 s); its status and page. */
async function page(url: string) {
  const until = Date.now() + 60_000;
  for (;;) {
    const res = await fetch(url);
    const html = await res.text();
    if (res.status === 200 || Date.now() > until) return { status: res.status, html, at: res.url };
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** The page, the short link and the embed of a form each answer 200 with the form. */
async function expectPages(links: { public_url: string; short_url: string }, title: string) {
  const direct = await page(links.public_url);
  expect(direct.status).toBe(200);
  expect(direct.html).toContain(`<h1>${title}</h1>`);
  expect(direct.html).toContain("<formdown-form");
  const short = await page(links.short_url);
  expect(short.status).toBe(200);
  expect(short.at.replace(/\/$/, "")).toBe(links.public_url);
  expect(short.html).toContain(`<h1>${title}</h1>`);
  // the snippet `formdown embed` prints: its script and the frame it opens
  const snippet = embedSnippet(links.public_url);
  const script = /<script src="([^"]+)"/.exec(snippet)![1]!;
  const framed = /data-formdown="([^"]+)"/.exec(snippet)![1]!;
  const js = await page(script);
  expect(js.status).toBe(200);
  expect(js.html).toContain("data-formdown");
  const frame = await page(`${framed}?embed=1&scheme=light`);
  expect(frame.status).toBe(200);
  expect(frame.html).toContain(`<h1>${title}</h1>`);
}

// One pages build for both databases: the operator's repository (its own form beside the
// bundled examples) built for the Node origin on a port fixed here, then served as files.
const work = mkdtempSync(join(tmpdir(), "formdown-split-pages-"));
const outDir = join(ROOT, "node_modules/.cache", `formdown-split-pages-${process.pid}`);
const appRepo = join(work, "site");
let nodePort = 0;
let statics: StaticHost;

beforeAll(async () => {
  nodePort = await freePort();
  mkdirSync(join(appRepo, "forms/@acme"), { recursive: true });
  cpSync(join(ROOT, "test/fixtures/examples"), join(appRepo, "forms/@me"), { recursive: true });
  writeFileSync(join(appRepo, "forms/@acme/site.md"), form("site", "Site survey"));
  git(appRepo, "init", "-q", "-b", "main");
  git(appRepo, "add", "-A");
  git(appRepo, "commit", "-qm", "the operator's first form");
  const pagesPort = await freePort();
  await buildPages({
    outDir,
    quiet: true,
    env: {
      FORMDOWN_FORMS_DIR: join(appRepo, "forms"),
      FORMDOWN_BASE_URL: `127.0.0.1:${nodePort}`,
      FORMDOWN_PUBLIC_BASE_URL: `127.0.0.1:${pagesPort}`,
    },
  });
  statics = await startStatic(join(outDir, "client"), pagesPort);
}, 300_000);

afterAll(async () => {
  await statics?.close();
  rmSync(work, { recursive: true, force: true });
  rmSync(outDir, { recursive: true, force: true });
});

describe.each(pg ? ["pglite", "postgres"] : ["pglite"])(
  "every form has a page in the split deployment, on %s",
  (kind) => {
    const dbName = `formdown_split_pages_${process.pid}_${Date.now()}`;
    const admin = kind === "postgres" ? postgres(pg!, { max: 1, onnotice: () => {} }) : null;
    const dataDir = join(work, `data-${kind}`);
    let node: ChildServer;
    let deno: ChildProcess | null = null;
    /** Where REST calls and the forms-only repository's deploy go: the Deno entry on Postgres. */
    let api = "";
    let key = "";

    beforeAll(async () => {
      // the API host's checkout of the operator's repository, pulled from its remote
      const hostRepo = join(work, `host-${kind}`);
      git(work, "clone", "-q", appRepo, hostRepo);
      git(hostRepo, "remote", "set-url", "origin", "https://git.example.com/acme/site.git");
      const env: Record<string, string> = {
        FORMDOWN_BASE_URL: `127.0.0.1:${nodePort}`,
        FORMDOWN_PUBLIC_BASE_URL: statics.url,
      };
      if (admin) {
        await admin.unsafe(`create database ${dbName}`);
        const u = new URL(pg!);
        u.pathname = `/${dbName}`;
        Object.assign(env, { DATABASE_URL: u.toString(), FORMDOWN_ADMIN_TOKEN: ADMIN });
      } else env.FORMDOWN_HANDLER = "acme";
      node = await startChild({ dataDir, repoDir: hostRepo, port: nodePort, env });
      api = node.url;
      if (admin) {
        const res = await fetch(`${node.url}/api/accounts`, {
          method: "POST",
          headers: { authorization: `Bearer ${ADMIN}`, "content-type": "application/json" },
          body: JSON.stringify({ handler: "acme", email: "acme@example.com" }),
        });
        key = ((await res.json()) as { api_key: string }).api_key;
        const port = await freePort();
        const denoDir = join(work, "deno");
        deno = spawnDenoEntry(port, {
          ...env,
          FORMDOWN_REPO_DIR: denoDir,
          FORMDOWN_DATA_DIR: denoDir,
        });
        await new Promise<void>((ready, fail) => {
          deno!.stdout!.on("data", (d: Buffer) => /URL /.test(d.toString()) && ready());
          deno!.once("exit", (code) => fail(new Error(`deno exited ${code}`)));
        });
        api = `http://127.0.0.1:${port}/formdown`;
      } else key = firstKey(dataDir);
    }, 240_000);

    afterAll(async () => {
      if (deno?.exitCode === null) deno.kill("SIGKILL");
      await node?.stop();
      if (admin) {
        await admin.unsafe(`drop database if exists ${dbName} with (force)`);
        await admin.end();
      }
    });

    const rest = (method: string, path: string, body?: unknown) =>
      fetch(`${api}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        ...(body ? { body: JSON.stringify(body) } : {}),
      }).then(async (res) => ({ status: res.status, body: (await res.json()) as any }));

    it("the operator's repository: a first `deploy --check` passes, its form on the static host, the examples left out", async () => {
      // the deploy workflow's checkout, on its first run (no commit before)
      const ci = join(work, `ci-${kind}`);
      git(work, "clone", "-q", appRepo, ci);
      git(ci, "remote", "set-url", "origin", "git@git.example.com:acme/site.git");
      const run = await deploy(ci, node.url, key);
      expect(run.out).toContain("smoke check: /api/health and 1 page(s) answer 200");
      expect(run.code).toBe(0);
      expect(run.out).not.toContain("@me");
      const site = await rest("GET", "/api/forms/site");
      expect(site.body.public_url).toBe(`${statics.url}/@acme/site`);
      await expectPages(site.body, "Site survey");
      // the static host holds it; the examples it never built are not asked for
      expect(statics.asked).toContain("/@acme/site");
      expect(statics.asked.some((p) => p.startsWith("/@me/"))).toBe(false);
    });

    it("a form made over REST: its page, short link and embed answer 200, served by the API origin", async () => {
      const made = await rest("POST", "/api/forms", {
        markdown: form(`rest-${kind}`, "Over REST"),
      });
      expect(made.status).toBe(201);
      const links = (await rest("GET", `/api/forms/rest-${kind}`)).body;
      // the static host has no page for it (a file host cannot have one until the next build)
      expect((await fetch(`${statics.url}/@acme/rest-${kind}/`)).status).toBe(404);
      expect(links.public_url).toBe(`${node.url}/@acme/rest-${kind}`);
      await expectPages(links, "Over REST");
    });

    it("a form made over MCP: the same", async () => {
      const agent = await connectAgent("v2 SDK", api, key);
      const made = await agent.call("create_form", { markdown: form(`mcp-${kind}`, "Over MCP") });
      await agent.close();
      expect(made.isError).toBeFalsy();
      expect(made.structuredContent.public_url).toBe(`${node.url}/@acme/mcp-${kind}`);
      const links = (await rest("GET", `/api/forms/mcp-${kind}`)).body;
      await expectPages(links, "Over MCP");
    });

    it("a forms-only repository: its first `deploy --check` passes and the form's pages answer 200", async () => {
      const repo = join(work, `forms-only-${kind}`);
      mkdirSync(join(repo, "forms/@acme"), { recursive: true });
      writeFileSync(join(repo, "forms/@acme/poll.md"), form("poll", "Team poll"));
      git(repo, "init", "-q", "-b", "main");
      git(repo, "remote", "add", "origin", "https://git.example.com/acme/forms.git");
      git(repo, "add", "-A");
      git(repo, "commit", "-qm", "a poll");
      const run = await deploy(repo, api, key);
      expect(run.out).toContain("smoke check: /api/health and 1 page(s) answer 200");
      expect(run.code).toBe(0);
      const links = (await rest("GET", "/api/forms/poll")).body;
      expect(links.public_url).toBe(`${node.url}/@acme/poll`);
      await expectPages(links, "Team poll");
    });
  },
);
