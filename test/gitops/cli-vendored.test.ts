// SPEC §21: a forms-only repository works on a CI runner. The server serves its CLI as one file;
// `formdown init` vendors it; a clean clone validates and deploys with only Node (the machine's
// Node 20 when there is one, as on a runner with setup-node 20) and that file.
import { execFile, execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const NODE20 = "/usr/bin/node";
const nodeDir =
  existsSync(NODE20) && execFileSync(NODE20, ["-v"]).toString().startsWith("v20")
    ? dirname(NODE20)
    : dirname(process.execPath);
const version = (
  JSON.parse(await readFile(new URL("../../package.json", import.meta.url), "utf8")) as {
    version: string;
  }
).version;

let s: TestServer;
let tmp: string;

/** `node <args>` with only the chosen Node and git on PATH, nothing of this checkout. */
const node = (
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(
      "node",
      args,
      { cwd, env: { PATH: `${nodeDir}:/usr/bin:/bin`, HOME: tmp, ...env } },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === "number" ? error.code : 1) : 0,
          stdout,
          stderr,
        }),
    );
  });
const git = (cwd: string, ...args: string[]) =>
  execFileSync("git", ["-C", cwd, "-c", "user.name=t", "-c", "user.email=t@t", ...args])
    .toString()
    .trim();

beforeAll(async () => {
  s = await startTestServer();
  tmp = await mkdtemp(join(tmpdir(), "formdown-vendored-"));
});
afterAll(async () => {
  await s?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe("the vendored CLI in a forms-only repository", () => {
  const bare = () => s.url.replace(/^http:\/\//, ""); // a bare host:port, as people type it
  let served: string;

  it("is served at /cli/formdown.mjs in the server's version and runs on plain node", async () => {
    const res = await fetch(`${s.url}/cli/formdown.mjs`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/javascript/);
    expect(res.headers.get("x-formdown-version")).toBe(version);
    served = await res.text();
    expect(served.split("\n")[1]).toContain(`// formdown ${version}:`);
    await writeFile(join(tmp, "formdown.mjs"), served);
    const v = await node([join(tmp, "formdown.mjs"), "--version"], tmp);
    expect(v.stdout).toContain(`formdown/${version}`);
  });

  it("init vendors it, writes workflows that need only node, a .gitignore and a README", async () => {
    const repo = join(tmp, "forms");
    execFileSync("git", ["init", "-q", repo]);
    const init = await node([join(tmp, "formdown.mjs"), "init", "--url", bare()], repo);
    expect(init.code, init.stderr).toBe(0);
    expect(await readFile(join(repo, ".formdown/formdown.mjs"), "utf8")).toBe(served);
    for (const wf of ["formdown-validate.yml", "formdown-deploy.yml"]) {
      const text = await readFile(join(repo, ".github/workflows", wf), "utf8");
      expect(text).toMatch(/run: node \.formdown\/formdown\.mjs (validate|deploy)/);
      expect(text).not.toMatch(/npm (install|ci)|npx|file:\.\.|\.tgz/);
    }
    expect(await readFile(join(repo, "package.json"), "utf8")).not.toMatch(/dependencies|file:/);
    expect(await readFile(join(repo, "README.md"), "utf8")).toContain(
      "node .formdown/formdown.mjs self-update --url",
    );
    git(repo, "add", "-A");
    git(repo, "commit", "-qm", "forms");
    expect(git(repo, "ls-files")).toContain(".formdown/formdown.mjs");
  });

  it("init scaffolds under the key's own handler and deploys on the repository's own branch", async () => {
    const repo = join(tmp, "acme");
    execFileSync("git", ["init", "-q", "-b", "master", repo]);
    const key = await s.otherKey();
    const { handler } = await (
      await fetch(`${s.url}/api/account`, { headers: { authorization: `Bearer ${key}` } })
    ).json();
    const init = await node([join(tmp, "formdown.mjs"), "init", "--url", bare()], repo, {
      FORMDOWN_API_KEY: key,
    });
    expect(init.code, init.stderr).toBe(0);
    expect(init.stderr).toContain(`created forms/@${handler}/hello.md`);
    const deploy = await readFile(join(repo, ".github/workflows/formdown-deploy.yml"), "utf8");
    expect(deploy).toContain('branches: ["master"]');
  });

  it("a clean clone validates and deploys with only node and the wrapper, and stays clean", async () => {
    const clone = join(tmp, "clone");
    execFileSync("git", ["clone", "-q", join(tmp, "forms"), clone]);
    const hello = await readFile(join(clone, "forms/@me/hello.md"), "utf8");
    await writeFile(
      join(clone, "forms/@me/hello.md"),
      hello.replace("slug: hello", "slug: hello-ci"),
    );
    git(clone, "mv", "forms/@me/hello.md", "forms/@me/hello-ci.md");
    git(clone, "commit", "-qam", "rename");
    const env = { FORMDOWN_URL: bare(), FORMDOWN_API_KEY: s.apiKey };
    const validate = await node([".formdown/formdown.mjs", "validate"], clone, env);
    expect(validate.code, validate.stdout + validate.stderr).toBe(0);
    // --check, as the deploy workflow runs it: the server's health and the new form's page
    const deploy = await node([".formdown/formdown.mjs", "deploy", "--check"], clone, env);
    expect(deploy.code, deploy.stderr).toBe(0);
    expect(deploy.stdout).toMatch(/created\s+hello-ci\s+http/);
    expect(deploy.stderr).toContain("smoke check: /api/health and 1 page(s) answer 200");
    const list = await node([".formdown/formdown.mjs", "list", "--json"], clone, env);
    expect(JSON.parse(list.stdout).map((f: { slug: string }) => f.slug)).toContain("hello-ci");
    for (const r of [validate, deploy, list]) expect(r.stderr).not.toMatch(/Warning|\n\s+at /);
    expect(git(clone, "status", "--porcelain")).toBe("");
  });

  it("self-update replaces the wrapper with the server's CLI", async () => {
    const clone = join(tmp, "clone");
    const wrapper = join(clone, ".formdown/formdown.mjs");
    await writeFile(wrapper, served.replace(`// formdown ${version}:`, "// formdown 0.0.1:"));
    const update = await node([".formdown/formdown.mjs", "self-update", "--url", bare()], clone);
    expect(update.code, update.stderr).toBe(0);
    expect(update.stderr).toContain(`0.0.1 → ${version}`);
    expect(await readFile(wrapper, "utf8")).toBe(served);
    const wrong = await node(
      [".formdown/formdown.mjs", "self-update", "--url", "127.0.0.1:9"],
      clone,
    );
    expect([wrong.code, wrong.stderr]).toEqual([1, expect.stringMatching(/^error: cannot reach/)]);
    expect(await readFile(wrapper, "utf8")).toBe(served);
  });
});
