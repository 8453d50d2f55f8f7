// What a bare `formdown validate`/`plan`/`deploy` and `deploy --since` take from a repository
// (SPEC §17): the bundled examples only while the repository has no form of its own — a clone
// of Formdown used in production must not publish them under the operator's account (a first
// push or a manual run of the deploy workflow deploys every file), nor close the operator's
// own `contact` when the example of that name is removed.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { BUNDLED_EXAMPLES } from "../../src/core/bundled-examples.ts";
import { formFiles } from "./check-files.ts";

let repo = "";
afterEach(() => {
  if (repo) rmSync(repo, { recursive: true, force: true });
});

const git = (...args: string[]) =>
  execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", ...args], {
    cwd: repo,
    encoding: "utf8",
  }).trim();
const write = (path: string, text = `---\ntitle: ${path}\n---\n`) => {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), text);
};
const commit = () => {
  git("add", "-A");
  git("commit", "-qm", "change");
  return git("rev-parse", "HEAD");
};
const withExamples = () => {
  repo = mkdtempSync(join(tmpdir(), "formdown-repo-forms-"));
  git("init", "-q", "-b", "main");
  for (const path of BUNDLED_EXAMPLES) write(path);
  return commit();
};

describe("the form files a bare command takes", () => {
  it("are the bundled examples in a repository that has nothing else", async () => {
    withExamples();
    expect((await formFiles(repo)).sort()).toEqual([...BUNDLED_EXAMPLES].sort());
  });

  it("leave the bundled examples out once the repository has a form of its own", async () => {
    withExamples();
    write("forms/@acme/contact.md");
    write("forms/@acme/signup.md");
    expect(await formFiles(repo)).toEqual(["forms/@acme/contact.md", "forms/@acme/signup.md"]);
  });
});
