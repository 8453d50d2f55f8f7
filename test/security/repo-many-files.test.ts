// Tenth review, part B (2026-11-28): the server's own reconcile (start-up and the branch watcher,
// functions/node/bootstrap.ts) grouped the form files by account with a copy of the account's
// list for each file, quadratic in the files of one folder: a commit of 20,000 empty files under
// forms/@me/ held the event loop 3.6 s in one piece, 50,000 about 35 s (a committer of one
// account stalls every account's requests, at each start and at the commit). The committed files
// were also read by `<commit>:<path>`, which git resolves from the tree's start for each path
// (20,000 files: 26 s of git's CPU). Now each file is pushed to its list and read by its blob id.
// Before, this case outlived its timeout (about 50 s of one block, then minutes of git).
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { reconcileRepository } from "../../functions/node/bootstrap.ts";
import { DB_KINDS } from "../helpers/db.ts";
import { startTestServer, type TestServer } from "../helpers/server.ts";

const FILES = 60_000;
const OK = "---\ntitle: Fine\nslug: ok\nhumanness: false\nfields:\n  - {id: a, type: text}\n---\n";

describe.each(DB_KINDS)("a commit of many files in one folder (%s)", (kind) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ db: kind, log: { info: () => {}, error: () => {} } });
    const git = (args: string[], input?: string) =>
      execFileSync("git", ["-C", s.repoDir, ...args], { input, maxBuffer: 1 << 28 })
        .toString()
        .trim();
    // one tree of FILES empty files and one form, made without a working tree
    const empty = git(["hash-object", "-w", "--stdin"], "");
    const ok = git(["hash-object", "-w", "--stdin"], OK);
    const entries = Array.from({ length: FILES }, (_, i) => `100644 blob ${empty}\tf${i}.md\n`);
    const folder = git(["mktree"], `${entries.join("")}100644 blob ${ok}\tok.md\n`);
    const forms = git(["mktree"], `040000 tree ${folder}\t@me\n`);
    const top = git(["mktree"], `040000 tree ${forms}\tforms\n`);
    const commit = git(
      ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit-tree", top, "-m", "many"],
      "",
    );
    git(["update-ref", "HEAD", commit]);
  }, 60_000);
  afterAll(() => s?.close());

  it("is reconciled in linear work", { timeout: 90_000 }, async () => {
    const { deployed, invalid } = await reconcileRepository(s.ctx, { committed: true });
    expect(deployed).toEqual(["forms/@me/ok.md"]);
    expect(invalid).toHaveLength(FILES);
  });
});
