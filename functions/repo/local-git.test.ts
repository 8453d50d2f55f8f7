// A folder is taken for a git working tree only when git says so, and git is asked only when a
// `.git` lies at or above it (functions/repo/local-git.ts).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { isGitTree } from "./local-git.ts";

const root = mkdtempSync(join(tmpdir(), "formdown-git-tree-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

it("finds a working tree from its root and below, and none without one", async () => {
  const plain = join(root, "plain", "forms");
  mkdirSync(plain, { recursive: true });
  expect(await isGitTree(plain)).toBe(false);
  expect(await isGitTree(join(root, "missing"))).toBe(false);
  const tree = join(root, "tree");
  mkdirSync(join(tree, "forms"), { recursive: true });
  execFileSync("git", ["init", "-q", tree]);
  expect(await isGitTree(tree)).toBe(true);
  expect(await isGitTree(join(tree, "forms"))).toBe(true);
  // a `.git` that is not a repository: git is asked, and says no
  const fake = join(root, "fake");
  mkdirSync(fake);
  writeFileSync(join(fake, ".git"), "not a repository\n");
  expect(await isGitTree(fake)).toBe(false);
});
