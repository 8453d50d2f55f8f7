// Seventh review (2026-11-28, docs/security-review.md): the watcher's reconcile read the committed
// form files through one `git cat-file --batch`, a line per path, and took the answers in order.
// Git allows a line break in a path: a committer of one account's folder could commit
// `forms/@a` + "\n" + `<its folder's tree>:evil.md`, and cat-file read it as two requests (a
// missing path, then the attacker's file), so every later path was given the content of the
// one before it: `forms/@me/form.md` read as the blob the other account's committer chose. A path
// with a line break (no form or translation file has one) is now left unread.
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filesAt } from "../../functions/repo/git-history.ts";

describe("a committed path with a line break", () => {
  let root: string;
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", root, ...args], { encoding: "utf8" }).trim();
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "fd-newline-"));
    git("init", "-q");
    git("config", "user.email", "t@example.org");
    git("config", "user.name", "t");
    await mkdir(join(root, "forms/@me"), { recursive: true });
    await mkdir(join(root, "forms/@other"), { recursive: true });
    await writeFile(join(root, "forms/@me/form.md"), "mine\n");
    await writeFile(join(root, "forms/@other/evil.md"), "the other account's text\n");
    git("add", "-A");
    // the other account's own folder, as a tree known before the commit
    const folder = git("write-tree", "--prefix=forms/@other/");
    // a path whose second line names a file of that folder; it sorts before forms/@me/…
    const path = `forms/@a\n${folder}:evil.md`;
    const blob = git("hash-object", "-w", "forms/@me/form.md");
    execFileSync("git", [
      "-C",
      root,
      "update-index",
      "--add",
      "--cacheinfo",
      `100644,${blob},${path}`,
    ]);
    git("commit", "-qm", "files");
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("is not read, and does not shift what the paths after it read", async () => {
    const files = await filesAt(root, git("rev-parse", "HEAD"));
    expect(files.get("forms/@me/form.md")).toBe("mine\n");
    expect([...files.keys()].some((p) => p.includes("\n"))).toBe(false);
  });
});
