// SPEC §22 "One reconcile", walked as issue 43 saw it: a watched repository's delete and rename,
// a rename and then a restart, a restart before the deploy workflow's `formdown deploy`, and a
// rename through a forms-only repository. Each ends with one form per file, the old URL 301,
// every answer under the one form, and a removed file's form closed.
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reconcileRepository } from "../../functions/node/bootstrap.ts";
import { runFormdown } from "../helpers/cli.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const form = (slug: string, title: string) => `---
title: ${title}
slug: ${slug}
humanness: false
fields:
  - id: name
    type: text
    label: Your name
    required: true
  - id: note
    type: textarea
    label: Anything else
---

A form about ${title.toLowerCase()}, with enough text that git sees a rename as a rename.
`;

const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
    cwd,
    encoding: "utf8",
  }).trim();

async function until<T>(read: () => Promise<T>, check: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const v = await read();
    if (check(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** What a `formdown deploy --json` changed: every file's outcome but "unchanged". */
const changes = (stdout: string) =>
  (JSON.parse(stdout) as { slug: string; result: string }[]).filter(
    (r) => r.result !== "unchanged",
  );

describe.each(DB_KINDS)("one reconcile for every deploy path (SPEC §22) on %s", (db) => {
  let s: TestServer;
  let scratch: string;
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${s.url}${path}`, {
      redirect: "manual",
      ...init,
      headers: { authorization: `Bearer ${s.apiKey}`, "content-type": "application/json" },
    });
  const submit = (slug: string, name: string) =>
    fetch(`${s.url}/api/forms/${slug}/submit`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ fields: { name } }),
    });
  const formOf = async (slug: string) => {
    const res = await api(`/api/forms/${slug}`);
    return res.status === 200 ? ((await res.json()) as { form_id: string; status: string }) : null;
  };
  /** The account's forms among these slugs (one form per file: never two). */
  const slugsAmong = async (...slugs: string[]) => {
    const listed = await (await api("/api/forms")).json();
    return ((Array.isArray(listed) ? listed : listed.forms) as { slug: string }[])
      .map((f) => f.slug)
      .filter((x) => slugs.includes(x))
      .sort();
  };
  const commit = async (repo: string, files: Record<string, string | null>, message: string) => {
    for (const [path, text] of Object.entries(files)) {
      if (text === null) git(repo, "rm", "-q", path);
      else {
        await mkdir(join(repo, path, ".."), { recursive: true });
        await writeFile(join(repo, path), text);
      }
    }
    git(repo, "add", "-A");
    git(repo, "commit", "-qm", message);
  };

  beforeAll(async () => {
    s = await startTestServer({ db, watchRepository: 100 });
    scratch = await mkdtemp(join(tmpdir(), "formdown-reconcile-"));
    git(s.repoDir, "remote", "add", "origin", "https://git.example.com/acme/site.git");
  });
  afterAll(async () => {
    await s?.close();
    if (scratch) await rm(scratch, { recursive: true, force: true });
  });

  it("closes a watched repository's removed file's form: a submit is 403 form_closed", async () => {
    await commit(s.repoDir, { "forms/@me/welcome.md": form("welcome", "Welcome") }, "add");
    expect((await until(() => formOf("welcome"), Boolean))?.status).toBe("live");
    expect((await submit("welcome", "Ada")).status).toBe(201);
    await commit(s.repoDir, { "forms/@me/welcome.md": null }, "remove");
    const closed = await until(
      () => formOf("welcome"),
      (f) => f?.status === "closed",
    );
    expect(closed?.status).toBe("closed");
    const refused = await submit("welcome", "Bob");
    expect([refused.status, (await refused.json()).code]).toEqual([403, "form_closed"]);
  });

  it("moves a watched repository's renamed file's form, and a restart brings nothing back", async () => {
    await commit(s.repoDir, { "forms/@me/lunch.md": form("lunch", "Lunch") }, "add lunch");
    const before = await until(() => formOf("lunch"), Boolean);
    expect((await submit("lunch", "Ada")).status).toBe(201);
    git(s.repoDir, "mv", "forms/@me/lunch.md", "forms/@me/team-lunch.md");
    await commit(s.repoDir, { "forms/@me/team-lunch.md": form("team-lunch", "Lunch") }, "mv");
    const moved = await until(() => formOf("team-lunch"), Boolean);
    expect(moved?.form_id).toBe(before?.form_id);
    expect((await api("/api/forms/lunch")).status).toBe(404);
    const old = await fetch(`${s.url}/@me/lunch`, { redirect: "manual" });
    expect([old.status, old.headers.get("location")]).toEqual([301, `${s.url}/@me/team-lunch`]);
    expect((await submit("team-lunch", "Cy")).status).toBe(201);
    // a page built before the rename still submits (and beacons) to the one form
    expect((await submit("lunch", "Dee")).status).toBe(201);
    const beacon = await fetch(`${s.url}/api/forms/lunch/events`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ type: "view" }),
    });
    expect(beacon.status).toBeLessThan(300);
    // a restart: the start-up reconcile of the same commit changes nothing
    const again = await reconcileRepository(s.ctx);
    expect(again.results.filter((r) => r.result !== "unchanged")).toEqual([]);
    expect(await slugsAmong("lunch", "team-lunch")).toEqual(["team-lunch"]);
    const answers = await (await api("/api/forms/team-lunch/responses")).json();
    expect(
      answers.responses.map((r: { payload: { name: string } }) => r.payload.name).sort(),
    ).toEqual(["Ada", "Cy", "Dee"]);
  });

  it("a restart before the deploy workflow's `formdown deploy` splits nothing", async () => {
    // the deploy workflow's checkout of the same repository (same origin)
    const ci = join(scratch, "ci");
    git(scratch, "clone", "-q", s.repoDir, ci);
    git(ci, "remote", "set-url", "origin", "git@git.example.com:acme/site.git");
    git(ci, "mv", "forms/@me/team-lunch.md", "forms/@me/lunch-club.md");
    await commit(ci, { "forms/@me/lunch-club.md": form("lunch-club", "Lunch") }, "rename again");
    const id = (await formOf("team-lunch"))?.form_id;
    // the host pulls and restarts first: its start-up reconcile sees the rename
    git(s.repoDir, "pull", "-q", "--ff-only", ci, "HEAD");
    await until(() => formOf("lunch-club"), Boolean);
    await reconcileRepository(s.ctx);
    // then the workflow deploys: the server already applied this commit of this repository
    const run = await runFormdown(["deploy", "--json"], {
      env: { FORMDOWN_URL: s.url, FORMDOWN_API_KEY: s.apiKey },
      cwd: ci,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(changes(run.stdout)).toEqual([]);
    expect((await formOf("lunch-club"))?.form_id).toBe(id);
    expect(await slugsAmong("lunch", "team-lunch", "lunch-club")).toEqual(["lunch-club"]);
    expect((await fetch(`${s.url}/@me/team-lunch`, { redirect: "manual" })).status).toBe(301);
  });

  it("moves a form renamed in a forms-only repository, commits nothing to the server's, and a restart does not bring the old slug back", async () => {
    const repo = join(scratch, "forms-only");
    await mkdir(repo);
    git(repo, "init", "-q", "-b", "main");
    git(repo, "remote", "add", "origin", "https://git.example.com/acme/forms.git");
    await commit(
      repo,
      {
        "forms/@me/hello.md": form("hello", "Hello"),
        "forms/@me/stays.md": form("stays", "Stays"),
      },
      "hello",
    );
    const env = { FORMDOWN_URL: s.url, FORMDOWN_API_KEY: s.apiKey };
    const serverCommits = git(s.repoDir, "rev-list", "--count", "HEAD");
    expect((await runFormdown(["deploy"], { env, cwd: repo })).code).toBe(0);
    const first = await formOf("hello");
    expect((await submit("hello", "Ada")).status).toBe(201);
    git(repo, "mv", "forms/@me/hello.md", "forms/@me/greeting.md");
    await commit(repo, { "forms/@me/greeting.md": form("greeting", "Hello") }, "rename");
    // no --since: the server's last applied commit of this repository is the base
    const run = await runFormdown(["deploy", "--json"], { env, cwd: repo });
    expect(run.code, run.stderr).toBe(0);
    expect(
      changes(run.stdout).map((r: { slug: string; result: string }) => [r.slug, r.result]),
    ).toEqual([["greeting", "renamed"]]);
    expect((await formOf("greeting"))?.form_id).toBe(first?.form_id);
    expect(git(s.repoDir, "rev-list", "--count", "HEAD")).toBe(serverCommits);
    await reconcileRepository(s.ctx);
    expect(await slugsAmong("hello", "greeting")).toEqual(["greeting"]);
    expect((await fetch(`${s.url}/@me/hello`, { redirect: "manual" })).status).toBe(301);
    // a dry run says what a reconcile would do, and does nothing
    await commit(repo, { "forms/@me/greeting.md": null }, "remove");
    const dry = await runFormdown(["deploy", "--dry-run", "--json"], { env, cwd: repo });
    expect(
      changes(JSON.stringify(JSON.parse(dry.stdout).results)).map(
        (r: { slug: string; result: string }) => [r.slug, r.result],
      ),
    ).toEqual([["greeting", "closed"]]);
    expect((await formOf("greeting"))?.status).toBe("live");
  });
});

describe("who writes where (SPEC §22)", () => {
  let s: TestServer;
  beforeAll(async () => {
    // production (a DATABASE_URL) with a checkout that pulls from a remote
    const repoDir = await mkdtemp(join(tmpdir(), "formdown-pulled-"));
    git(repoDir, "init", "-q", "-b", "main");
    git(repoDir, "remote", "add", "origin", "https://git.example.com/acme/site.git");
    git(repoDir, "commit", "-q", "--allow-empty", "-m", "first");
    s = await startTestServer({
      env: { DATABASE_URL: "postgres://given.by.the.test/db", FORMDOWN_REPO_DIR: repoDir },
    });
  });
  afterAll(() => s?.close());

  it("a form made over REST in production commits nothing into a checkout that pulls", async () => {
    const repoDir = s.ctx.config.repoDir;
    const made = await fetch(`${s.url}/api/forms`, {
      method: "POST",
      headers: { authorization: `Bearer ${s.apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ title: "Made", slug: "made", fields: [{ id: "a", type: "text" }] }),
    });
    expect(made.status).toBe(201);
    expect(git(repoDir, "rev-list", "--count", "HEAD")).toBe("1");
    expect(git(repoDir, "status", "--porcelain")).toBe("");
  });
});
