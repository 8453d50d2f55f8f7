// SPEC §22 "Pages submit by form id", in a browser: a static page built from a repository at
// commit A (before `pulse` was renamed `team-pulse`) still reaches the renamed form after the same
// account made a new form at `pulse`. The page sends its slug and `?built=A`; the server applied A
// through its reconcile (the branch watcher's path, real commits of a real repository) and knows
// `pulse` was the renamed form's then (functions/services/form-address.ts). The API-level cases,
// uploads and partials too, are test/gitops/pages-by-id.test.ts.
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reconcileRepository } from "../../functions/node/bootstrap.ts";
import { buildPages } from "../../functions/node/build-pages.ts";
import { client } from "../helpers/api.ts";
import { launch, type SuiteBrowser } from "../helpers/browser.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const outDir = new URL("../../node_modules/.cache/formdown-pages-by-id/", import.meta.url).pathname;
const form = (slug: string) => `---
title: Team pulse
slug: ${slug}
humanness: false
fields:
  - { id: name, type: text, label: Your name, required: true }
---

How is the team doing this week? A few words are enough, and nobody else sees them.
`;
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
    cwd,
    encoding: "utf8",
  }).trim();

let source = ""; // the forms repository: the build reads it, each server's checkout pulls it
let A = ""; // the commit the pages are built at
let statics: Server;
let apiOrigin: Server;
let pagesUrl = "";
let apiUrl = "";
let target = ""; // the server of the database kind under test
let browser: SuiteBrowser;
let context: BrowserContext;

/** Listens on a free port: an origin of its own. */
function listen(server: Server) {
  return new Promise<string>((done) =>
    server.listen(0, "127.0.0.1", () =>
      done(`http://localhost:${(server.address() as AddressInfo).port}`),
    ),
  );
}

beforeAll(async () => {
  source = await mkdtemp(join(tmpdir(), "formdown-pages-by-id-"));
  await mkdir(join(source, "forms/@me"), { recursive: true });
  git(source, "init", "-q", "-b", "main");
  await writeFile(join(source, "forms/@me/pulse.md"), form("pulse"));
  git(source, "add", "-A");
  git(source, "commit", "-qm", "pulse");
  A = git(source, "rev-parse", "HEAD");
  git(source, "branch", "built", A);
  // one build for every database: the pages name one API origin, which forwards to the server
  // of the run (a page's API origin is fixed at build, in its script and its CSP)
  apiOrigin = createServer((req, res) => {
    const to = new URL(target);
    const headers = { ...req.headers, host: to.host };
    const forward = request(
      { host: to.hostname, port: to.port, path: req.url, method: req.method, headers },
      (back) => {
        res.writeHead(back.statusCode ?? 502, back.headers);
        back.pipe(res);
      },
    );
    forward.on("error", () => res.writeHead(502).end());
    req.pipe(forward);
  });
  apiUrl = await listen(apiOrigin);
  await buildPages({
    outDir,
    env: { FORMDOWN_BASE_URL: apiUrl, FORMDOWN_FORMS_DIR: join(source, "forms") },
    quiet: true,
  });
  // after the build: pulse → team-pulse (commit B)
  git(source, "mv", "forms/@me/pulse.md", "forms/@me/team-pulse.md");
  await writeFile(join(source, "forms/@me/team-pulse.md"), form("team-pulse"));
  git(source, "commit", "-qam", "pulse → team-pulse");
  const types: Record<string, string> = { ".html": "text/html", ".js": "text/javascript" };
  // a plain static host: a file, or a folder's index.html
  statics = createServer(async (req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    const file = join(outDir, "client", path, extname(path) ? "" : "index.html");
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" });
      res.end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  pagesUrl = await listen(statics);
  browser = await launch();
  context = await browser.newContext();
}, 240_000);

afterAll(async () => {
  await browser?.close();
  statics?.close();
  apiOrigin?.close();
  await rm(outDir, { recursive: true, force: true });
  if (source) await rm(source, { recursive: true, force: true });
});

describe.each(DB_KINDS)("a static page built before a rename (SPEC §22) on %s", (db) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ db });
    target = s.url;
  });
  afterAll(() => s?.close());

  it("the page built at A reaches the renamed form, not the new form at its old slug", async () => {
    const api = client(s.url, s.apiKey);
    // the host's checkout pulls A, then B; the watcher's reconcile applies each HEAD
    git(s.repoDir, "pull", "-q", "--ff-only", source, "built");
    await reconcileRepository(s.ctx, { committed: true });
    expect(git(s.repoDir, "rev-parse", "HEAD")).toBe(A);
    const first = (await api("GET", "/api/forms/pulse")).body;
    expect(first.form_id).toBeTruthy();
    git(s.repoDir, "pull", "-q", "--ff-only", source, "main");
    const moved = await reconcileRepository(s.ctx, { committed: true });
    expect(moved.results.map((r) => [r.slug, r.result])).toEqual([["team-pulse", "renamed"]]);
    expect((await api("GET", "/api/forms/team-pulse")).body.form_id).toBe(first.form_id);
    // the same account makes a new form at the old slug
    const again = await api("POST", "/api/forms", {
      body: {
        title: "Pulse, again",
        slug: "pulse",
        humanness: false,
        fields: [{ id: "name", type: "text", label: "Your name" }],
      },
    });
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect(again.body.form_id).not.toBe(first.form_id);

    const page = await context.newPage();
    const calls: string[] = [];
    page.on("request", (r) => {
      if (r.url().startsWith(`${apiUrl}/api/`)) calls.push(`${r.method()} ${r.url()}`);
    });
    const viewed = page.waitForResponse(
      (r) => r.url().includes("/events") && r.request().postData()?.includes('"view"') === true,
    );
    await page.goto(`${pagesUrl}/@me/pulse/`);
    await page.getByLabel("Your name").fill("Ada");
    const submitted = page.waitForResponse(
      (r) => r.url().includes("/submit") && r.request().method() === "POST",
    );
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("heading", { name: "Thank you" }).waitFor({ timeout: 30_000 });
    expect((await submitted).status()).toBe(201);
    expect((await submitted).url()).toBe(`${apiUrl}/api/forms/pulse/submit?built=${A}`);
    expect((await viewed).status()).toBe(204);
    // every call the page made named the slug and the commit it was built at
    expect(calls.length).toBeGreaterThan(1);
    for (const call of calls)
      expect(call).toMatch(new RegExp(`^[A-Z]+ ${apiUrl}/api/forms/pulse/[a-z]+\\?built=${A}$`));
    await page.close();

    const names = async (slug: string) =>
      (await api("GET", `/api/forms/${slug}/responses`)).body.responses.map(
        (r: { payload: { name: string } }) => r.payload.name,
      );
    expect(await names("team-pulse")).toEqual(["Ada"]);
    expect(await names("pulse")).toEqual([]);
    const views = async (slug: string) => (await api("GET", `/api/forms/${slug}/stats`)).body.views;
    expect([await views("team-pulse"), await views("pulse")]).toEqual([1, 0]);
  });
});
