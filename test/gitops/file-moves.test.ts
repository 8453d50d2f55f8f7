import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runFormdown } from "../helpers/cli.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

// SPEC §16 "Files renamed or removed", with real git: one push renames a file and removes another.
let s: TestServer;
let repo: string;

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

const git = (...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
    cwd: repo,
    encoding: "utf8",
  });

beforeAll(async () => {
  s = await startTestServer({ db: process.env.TEST_DATABASE_URL ? "postgres" : "pglite" });
  repo = await mkdtemp(join(tmpdir(), "formdown-moves-"));
  git("init", "-q", "-b", "main");
  await mkdir(join(repo, "forms/@me"), { recursive: true });
});
afterAll(async () => {
  await s?.close();
  if (repo) await rm(repo, { recursive: true, force: true });
});

const env = () => ({ FORMDOWN_URL: s.url, FORMDOWN_API_KEY: s.apiKey });
const api = async (path: string, init: RequestInit = {}) =>
  fetch(`${s.url}${path}`, {
    redirect: "manual",
    ...init,
    headers: { authorization: `Bearer ${s.apiKey}`, "content-type": "application/json" },
  });
// a respondent: without the owner's key (with it, the answer would be a test answer)
const submit = (slug: string, name: string) =>
  fetch(`${s.url}/api/forms/${slug}/submit`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ fields: { name } }),
  }).then((r) => r.status);

/** What a `formdown deploy --json` changed: every file's outcome but "unchanged". */
const changes = (stdout: string) =>
  (JSON.parse(stdout) as { slug: string; result: string }[]).filter(
    (r) => r.result !== "unchanged",
  );

describe("formdown deploy --since: renamed and removed form files", () => {
  it("moves a renamed file's form (responses, webhooks, a 301 from the old URL) and closes a removed file's", async () => {
    await writeFile(join(repo, "forms/@me/signup.md"), form("signup", "Signup"));
    await writeFile(join(repo, "forms/@me/old-poll.md"), form("old-poll", "Old poll"));
    git("add", "-A");
    git("commit", "-qm", "two forms");
    const first = await runFormdown(["deploy"], { env: env(), cwd: repo });
    expect(first.code, first.stderr).toBe(0);
    const before = await (await api("/api/forms/signup")).json();
    expect(await submit("signup", "Ada")).toBe(201);
    expect(await submit("old-poll", "Bob")).toBe(201);
    const hook = await api("/api/forms/signup/webhooks", {
      method: "POST",
      body: JSON.stringify({ url: "https://hooks.example.com/in", events: ["response.created"] }),
    });
    expect(hook.status).toBe(201);

    // the second commit: signup.md → join.md (its slug with it), old-poll.md removed
    git("mv", "forms/@me/signup.md", "forms/@me/join.md");
    await writeFile(join(repo, "forms/@me/join.md"), form("join", "Signup"));
    git("rm", "-q", "forms/@me/old-poll.md");
    git("add", "-A");
    git("commit", "-qm", "rename signup, drop the poll");
    expect(git("diff", "--name-status", "-M", "HEAD~1", "HEAD")).toMatch(/^R\d+\t/m);

    const second = await runFormdown(["deploy", "--since", "HEAD~1", "--json"], {
      env: env(),
      cwd: repo,
    });
    expect(second.code, second.stderr).toBe(0);
    const results = changes(second.stdout) as { slug: string; result: string }[];
    expect(results.map((r) => [r.slug, r.result])).toEqual([
      ["join", "renamed"],
      ["old-poll", "closed"],
    ]);

    // the renamed form: the same id, its response, its webhook; the old URL redirects for good
    const moved = await (await api("/api/forms/join")).json();
    expect(moved.form_id).toBe(before.form_id);
    const answers = await (await api("/api/forms/join/responses")).json();
    expect(answers.responses.map((r: { payload: { name: string } }) => r.payload.name)).toEqual([
      "Ada",
    ]);
    const hooks = await (await api("/api/forms/join/webhooks")).json();
    expect(JSON.stringify(hooks)).toContain("hooks.example.com");
    expect((await api("/api/forms/signup")).status).toBe(404);
    const old = await fetch(`${s.url}/@me/signup?utm_source=x`, { redirect: "manual" });
    expect(old.status).toBe(301);
    expect(old.headers.get("location")).toBe(`${s.url}/@me/join?utm_source=x`);
    expect(await submit("join", "Cy")).toBe(201);

    // the removed file's form: closed, its response kept
    const poll = await (await api("/api/forms/old-poll")).json();
    expect(poll.status).toBe("closed");
    expect(poll.stats.responses).toBe(1);
    expect(await submit("old-poll", "Dee")).toBe(403);

    // a deploy with nothing changed since HEAD deploys nothing
    const again = await runFormdown(["deploy", "--since", "HEAD", "--json"], {
      env: env(),
      cwd: repo,
    });
    expect(changes(again.stdout)).toEqual([]);
  });

  it("takes a first push's zeros as no history: every file reconciled, nothing duplicated", async () => {
    const run = await runFormdown(
      ["deploy", "--since", "0000000000000000000000000000000000000000"],
      {
        env: env(),
        cwd: repo,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain("not a commit");
    expect(run.stderr).toContain("0 change(s), 1 file(s) unchanged");
    const listed = await (await api("/api/forms")).json();
    const slugs = (Array.isArray(listed) ? listed : listed.forms).map(
      (f: { slug: string }) => f.slug,
    );
    expect(slugs.filter((x: string) => ["join", "old-poll", "signup"].includes(x)).sort()).toEqual([
      "join",
      "old-poll",
    ]);
  });
});
