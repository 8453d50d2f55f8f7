// What a reconcile needs from a git working tree (SPEC §22): which repository it is, the commit
// it is at, and the form files git sees renamed since the last applied commit. Used by the
// server on its own checkout and by `formdown deploy` in the author's.
import { execFile, spawn } from "node:child_process";
import { promisify } from "node:util";
import { oversized, REPO_FILE_BYTES, REPO_TOTAL_BYTES } from "./plain.ts";

const run = promisify(execFile);

/**
 * A repository's name for the server: its `origin` without credentials, scheme or `.git`
 * (`git@github.com:o/r.git` and `https://github.com/o/r` are both `github.com/o/r`), so the
 * server's checkout and a CI checkout of one repository agree; `path:<folder>` without a remote.
 */
export function repositoryName(origin: string, toplevel: string): string {
  const url = origin.trim();
  if (!url) return `path:${toplevel}`;
  const scp = /^[^@/]+@([^:/]+):(.+)$/.exec(url);
  const [host, path] = scp
    ? [scp[1]!, scp[2]!]
    : (() => {
        try {
          const u = new URL(url);
          return [u.host, u.pathname];
        } catch {
          return ["", url];
        }
      })();
  const clean = path
    .replace(/^\/+/, "")
    .replace(/\/+$/, "")
    .replace(/\.git$/, "");
  return host ? `${host.toLowerCase()}/${clean}` : clean;
}

const STATE = `cd "$1" || exit 1
git rev-parse --show-toplevel || exit 1
git rev-parse --verify --quiet HEAD || echo
git remote get-url origin 2>/dev/null || echo`;

/** The working tree's repository name and HEAD (null before the first commit), in one process. */
export async function gitState(root: string): Promise<{ repository: string; head: string | null }> {
  const { stdout } = await run("sh", ["-c", STATE, "sh", root], { maxBuffer: 1 << 20 });
  const [toplevel = root, head = "", origin = ""] = stdout.split("\n");
  return { repository: repositoryName(origin, toplevel), head: head.trim() || null };
}

/**
 * Form files renamed between `base` (a commit or a ref) and `head` under `dir` (`git diff -M`);
 * none when `base` is not a commit here (a first push's zeros, a shallow clone).
 */
export async function renamesSince(
  root: string,
  base: string | null,
  head: string,
  dir = "forms",
): Promise<{ from: string; to: string }[]> {
  if (!base || base === head || base.startsWith("-")) return [];
  const diff = await run(
    "git",
    [
      "-C",
      root,
      "diff",
      "--relative",
      "--name-status",
      "-M",
      "--diff-filter=R",
      base,
      head,
      "--",
      dir,
    ],
    { maxBuffer: 8 << 20 },
  ).catch(() => null);
  if (!diff) return [];
  return diff.stdout
    .split("\n")
    .map((line) => line.split("\t"))
    .filter((parts) => parts.length === 3 && parts[0]!.startsWith("R"))
    .map(([, from, to]) => ({ from: from!, to: to! }));
}

/**
 * Every Markdown file under `dir` as committed at `commit` (not the working tree: what is
 * written but not committed is not deployed), read by two `git` processes whatever the number
 * of files: each at most REPO_FILE_BYTES (larger ones `oversized()`, unread), REPO_TOTAL_BYTES in
 * all, so a huge file committed beside the forms cannot take the server's memory.
 */
export async function filesAt(
  root: string,
  commit: string,
  dir = "forms",
): Promise<Map<string, string>> {
  const listed = await run(
    "git",
    ["-C", root, "ls-tree", "-r", "-z", "-l", "--full-name", commit, "--", dir],
    { maxBuffer: 32 << 20 },
  );
  const out = new Map<string, string>();
  /** Each path and its blob: read by object id, as `<commit>:<path>` git looks up each path in
   * its tree from the start, quadratic (20,000 files in one folder: 26 s of git's CPU). */
  const wanted: [path: string, blob: string][] = [];
  let total = 0;
  // `<mode> <type> <object> <size>\t<path>`. A path with a line break (git allows one; no form
  // or translation file has one) is left unread: cat-file reads its requests a line each, so
  // `forms/@a\n<tree>:evil.md` was two of them and every path after it got the one before's text
  for (const entry of listed.stdout.split("\0")) {
    const m = /^\d+ blob ([0-9a-f]+) +(\d+)\t([^\n]+\.md)$/.exec(entry);
    if (!m) continue;
    const size = Number(m[2]);
    if (size > REPO_FILE_BYTES) {
      out.set(m[3]!, oversized());
      continue;
    }
    total += size;
    if (total > REPO_TOTAL_BYTES)
      throw new Error(
        `The form files under ${dir} at ${commit} hold more than ${REPO_TOTAL_BYTES >> 20} MB.`,
      );
    wanted.push([m[3]!, m[1]!]);
  }
  if (wanted.length === 0) return out;
  const bytes = await new Promise<Buffer>((resolve, reject) => {
    const child = spawn("git", ["-C", root, "cat-file", "--batch"], {
      stdio: ["pipe", "pipe", "ignore"],
    });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => chunks.push(c));
    child.once("error", reject);
    child.once("close", (code) =>
      code === 0
        ? resolve(Buffer.concat(chunks))
        : reject(new Error(`git cat-file exited ${code}`)),
    );
    child.stdin.end(wanted.map(([, blob]) => `${blob}\n`).join(""));
  });
  let at = 0;
  for (const [path] of wanted) {
    const eol = bytes.indexOf(10, at);
    const header = bytes.subarray(at, eol).toString("utf8").split(" ");
    at = eol + 1;
    if (header[1] !== "blob") continue; // "missing"
    const size = Number(header[2]);
    out.set(path, bytes.subarray(at, at + size).toString("utf8"));
    at += size + 1;
  }
  return new Map([...out].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
