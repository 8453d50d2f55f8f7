// A reconcile reads the repository's form files into memory (functions/repo/git-history.ts for
// the committed tree, plain.ts for the folder). A huge file committed beside the forms (a 3 MB
// `forms/@me/huge.md`, or any blob) was read whole, every file of the tree with it: a committer
// of one account's files could take the server's memory at each start and each commit. Now each
// file is read up to 2 MB (a larger one is given as a text no form file passes), only Markdown
// files are read, and a tree whose form files hold more than 256 MB stops the reconcile.
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { filesAt } from "../../functions/repo/git-history.ts";
import { plainRepository, REPO_FILE_BYTES } from "../../functions/repo/plain.ts";
import { parseFormFile } from "../../src/core/form-file.ts";

const OK = `---
title: Fine
slug: ok
fields:
  - {id: name, type: text, label: Name}
---
`;

let root: string;
let head: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "formdown-size-"));
  await mkdir(join(root, "forms", "@me"), { recursive: true });
  await writeFile(join(root, "forms", "@me", "ok.md"), OK);
  await writeFile(join(root, "forms", "@me", "huge.md"), "x".repeat(3 * 1024 * 1024));
  await writeFile(join(root, "forms", "@me", "video.bin"), Buffer.alloc(3 * 1024 * 1024));
  const git = (...args: string[]) =>
    execFileSync("git", ["-C", root, ...args], { encoding: "utf8" }).trim();
  git("init", "-q");
  git("add", "-A");
  git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "huge");
  head = git("rev-parse", "HEAD");
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe("a huge file beside the forms", () => {
  it("is not read whole from the committed tree", async () => {
    const files = await filesAt(root, head);
    expect([...files.keys()]).toEqual(["forms/@me/huge.md", "forms/@me/ok.md"]);
    expect(files.get("forms/@me/ok.md")).toBe(OK);
    const huge = files.get("forms/@me/huge.md")!;
    expect(huge.length).toBeLessThanOrEqual(REPO_FILE_BYTES);
    expect(parseFormFile(huge, "forms/@me/huge.md").ok).toBe(false);
  });

  it("is not read whole from the folder", async () => {
    const repo = plainRepository(root);
    expect(await repo.read("forms/@me/ok.md")).toBe(OK);
    const huge = (await repo.read("forms/@me/huge.md"))!;
    expect(huge.length).toBeLessThanOrEqual(REPO_FILE_BYTES);
    expect(parseFormFile(huge, "forms/@me/huge.md").ok).toBe(false);
  });
});
