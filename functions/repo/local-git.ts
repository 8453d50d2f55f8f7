import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { FormRepository } from "../context.ts";
import { plainRepository } from "./plain.ts";

const run = promisify(execFile);
const AUTHOR = ["-c", "user.name=Formdown", "-c", "user.email=formdown@localhost"];

/** True when `dir` is inside a git working tree. */
export async function isGitTree(dir: string): Promise<boolean> {
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
  const git = (...args: string[]) =>
    run("git", ["-C", root, ...AUTHOR, ...args], { maxBuffer: 1 << 20 });
  const commit = async (path: string, message: string) => {
    await git("add", "--all", "--", path);
    const { stdout } = await git("status", "--porcelain", "--", path);
    if (stdout.trim() !== "")
      await git("commit", "--quiet", "--no-verify", "-m", message, "--", path);
    const head = await git("rev-parse", "HEAD").catch(() => null);
    return { sha: head ? head.stdout.trim() : null };
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
        const tracked = await git("ls-files", "--error-unmatch", "--", path).then(
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
