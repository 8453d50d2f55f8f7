// SPEC §15: the CLI is a package that works wherever it is installed. `npm pack` builds it; the
// tarball goes into a fresh forms-only git repository, where `formdown init`, `validate`,
// `deploy` and `list` run against a real server — on the machine's Node 20 and on Node 24 —
// without a stack trace or an engine warning.
import { execFile, execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const root = new URL("../../", import.meta.url).pathname;
const NODE20 = "/usr/bin/node";
const nodes = [
  ...(existsSync(NODE20) &&
  existsSync(join(dirname(NODE20), "npx")) &&
  execFileSync(NODE20, ["-v"]).toString().startsWith("v20")
    ? [["20", dirname(NODE20)]]
    : []),
  ["24", dirname(process.execPath)],
] as [string, string][];

let s: TestServer;
let tmp: string;
let tarball: string;

const sh = (
  cmd: string,
  args: string[],
  cwd: string,
  binDir: string,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> =>
  new Promise((resolve) => {
    execFile(
      cmd,
      args,
      {
        cwd,
        env: {
          // only the chosen Node on PATH (plus git): `#!/usr/bin/env node` picks it
          PATH: `${binDir}:/usr/bin:/bin`,
          HOME: tmp,
          npm_config_update_notifier: "false",
          ...env,
        },
      },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === "number" ? error.code : 1) : 0,
          stdout,
          stderr,
        }),
    );
  });

beforeAll(async () => {
  s = await startTestServer();
  tmp = await mkdtemp(join(tmpdir(), "formdown-pkg-"));
  const packed = await sh(
    "npm",
    ["pack", "--pack-destination", tmp, "--json"],
    join(root, "packages/cli"),
    // the project's Node 24 runs the build; npm is the one beside the Node running this test
    `${join(root, "node_modules/.bin")}:${dirname(process.execPath)}`,
  );
  expect(packed.code, packed.stderr).toBe(0);
  tarball = join(tmp, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename);
}, 120_000);
afterAll(async () => {
  await s?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

describe.each(nodes)("the packed CLI in a forms-only repository (Node %s)", (version, bin) => {
  let repo: string;
  const npx = (args: string[], env: Record<string, string> = {}) =>
    sh("npx", ["--no-install", "formdown", ...args], repo, bin, {
      FORMDOWN_URL: s.url.replace(/^http:\/\//, ""), // a bare host:port, as people type it
      FORMDOWN_API_KEY: s.apiKey,
      ...env,
    });

  it("installs from the tarball without engine warnings", async () => {
    repo = await mkdtemp(join(tmp, `repo-${version}-`));
    execFileSync("git", ["init", "-q", repo]);
    await writeFile(join(repo, "package.json"), '{ "private": true }\n');
    const res = await sh(
      "npm",
      ["install", "--no-audit", "--no-fund", "--offline", "-D", tarball],
      repo,
      bin,
    );
    expect(res.code, res.stderr).toBe(0);
    expect(`${res.stdout}${res.stderr}`).not.toMatch(/EBADENGINE|npm warn (?!Unknown user config)/);
    const node = await sh("node", ["-v"], repo, bin);
    expect(node.stdout).toMatch(new RegExp(`^v${version}\\.`));
  }, 120_000);

  it("scaffolds the repository, validates, deploys and lists against the server", async () => {
    const init = await npx(["init", "--handler", "me"]);
    expect(init.code, init.stderr).toBe(0);
    for (const f of [
      "forms/@me/hello.md",
      "formdown.schema.json",
      ".github/workflows/formdown-validate.yml",
      ".github/workflows/formdown-deploy.yml",
    ])
      expect(existsSync(join(repo, f)), f).toBe(true);
    const hello = await readFile(join(repo, "forms/@me/hello.md"), "utf8");
    expect(hello).toContain("# yaml-language-server: $schema=../../formdown.schema.json");
    // a slug no other run has deployed
    await writeFile(
      join(repo, `forms/@me/hello-${version}.md`),
      hello.replace("slug: hello", `slug: hello-${version}`),
    );
    const validate = await npx(["validate"]);
    expect(validate.code, validate.stdout + validate.stderr).toBe(0);
    const deploy = await npx(["deploy", `forms/@me/hello-${version}.md`]);
    expect(deploy.code, deploy.stderr).toBe(0);
    expect(deploy.stdout).toMatch(new RegExp(`created\\s+hello-${version}\\s+http`));
    const list = await npx(["list", "--json"]);
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout).map((f: { slug: string }) => f.slug)).toContain(
      `hello-${version}`,
    );
    for (const r of [init, validate, deploy, list]) {
      expect(r.stderr).not.toMatch(/Warning|EBADENGINE|\n\s+at /);
    }
  }, 120_000);
});
