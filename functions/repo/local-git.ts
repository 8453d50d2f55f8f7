import { execFile } from "node:child_process";
import { stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";
import type { FormRepository } from "../context.ts";
import { plainRepository } from "./plain.ts";

const run = promisify(execFile);

/**
 * A commit of one path, as one child process: stage the path, commit it if that changed anything,
 * print HEAD (`sh -c` with the root, path and message as its arguments, never in its text).
 * Four `git` children from the server cost four forks of a process that holds the embedded
 * database: about 20–50 ms of CPU each, measured, against 8 for a small process; the shell's own
 * forks are of a small process.
 */
const COMMIT = `set -e
root=$1; path=$2; message=$3
g() { git -C "$root" -c user.name=Formdown -c user.email=formdown@localhost "$@"; }
g add --all -- "$path"
changed=$(g status --porcelain -- "$path")
if [ -n "$changed" ]; then g commit --quiet --no-verify -m "$message" -- "$path"; fi
g rev-parse --verify --quiet HEAD || true`;

/**
 * Whether `dir` or a folder above it holds `.git` (a folder, or a worktree's file). Without one
 * no `git` process is started: spawning it held a cold start's one thread for 6-8 ms (a Deno
 * entry on a host without the repository, bench/deno-cold.ts).
 */
async function gitAbove(dir: string): Promise<boolean> {
  const exists = (path: string) => stat(path).then(Boolean, () => false);
  for (let at = resolve(dir); ; at = dirname(at)) {
    if (await exists(join(at, ".git"))) return true;
    if (dirname(at) === at) return false;
  }
}

/** True when `dir` is inside a git working tree. */
export async function isGitTree(dir: string): Promise<boolean> {
  if (!(await gitAbove(dir))) return false;
  try {
    const { stdout } = await run("git", ["-C", dir, "rev-parse", "--is-inside-work-tree"]);
    return stdout.trim() === "true";
  } catch {
    return false;
  }
}

/**
 * The local git working tree: each change is written and committed on its own (only that path is
 * staged, so an author's other work is never swept in). Calls are serialised in-process.
 */
export function gitRepository(root: string): FormRepository {
  const files = plainRepository(root);
  let queue: Promise<unknown> = Promise.resolve();
  const serial = <T>(task: () => Promise<T>): Promise<T> => {
    const next = queue.then(task, task);
    queue = next.catch(() => {});
    return next;
  };
  const commit = async (path: string, message: string) => {
    const { stdout } = await run("sh", ["-c", COMMIT, "sh", root, path, message], {
      maxBuffer: 1 << 20,
    });
    const head = stdout.trim().split("\n").at(-1) ?? "";
    return { sha: /^[0-9a-f]{40,64}$/.test(head) ? head : null };
  };
  return {
    kind: "git",
    write: (path, content, message) =>
      serial(async () => {
        await files.write(path, content, message);
        return commit(path, message);
      }),
    remove: (path, message) =>
      serial(async () => {
        const tracked = await run("git", [
          "-C",
          root,
          "ls-files",
          "--error-unmatch",
          "--",
          path,
        ]).then(
          () => true,
          () => false,
        );
        await files.remove(path, message);
        return tracked ? commit(path, message) : { sha: null };
      }),
    read: (path) => files.read(path),
    list: (dir) => files.list(dir),
  };
}

/** True when the working tree has an `origin` remote (a checkout that pulls). */
export async function hasRemote(dir: string): Promise<boolean> {
  return run("git", ["-C", dir, "remote", "get-url", "origin"]).then(
    () => true,
    () => false,
  );
}

/** The repository as read by the server and written by nobody: writes leave it as it is. */
export function readOnly(repo: FormRepository): FormRepository {
  return {
    ...repo,
    write: async () => ({ sha: null }),
    remove: async () => ({ sha: null }),
  };
}
