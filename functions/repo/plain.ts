import { lstat, mkdir, readdir, readFile, realpath, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { raise } from "../../src/core/errors.ts";
import { MAX_FORM_BYTES } from "../../src/core/form-bounds.ts";
import type { FormRepository } from "../context.ts";

/**
 * The most of one file a reconcile reads (a form file is at most 256 KB, its translations a few
 * times its texts). A larger one is never read whole: it is given as `oversized()`, which no form
 * or translation file passes.
 */
export const REPO_FILE_BYTES = 2 * 1024 * 1024;
/** The most the form files of one commit may hold altogether: past it, a reconcile stops. */
export const REPO_TOTAL_BYTES = 256 * 1024 * 1024;
export const oversized = () => " ".repeat(MAX_FORM_BYTES + 1);

/** Resolves a repository-relative path, refusing anything that escapes the root. */
export function inside(root: string, path: string): string {
  const base = resolve(root);
  const full = resolve(base, path);
  if (full !== base && !full.startsWith(`${base}/`))
    throw new Error(`path escapes the repository: ${path}`);
  return full;
}

/**
 * `inside`, and no symbolic link on the way: the deepest part of the path that exists is where
 * its name says. A link committed into the forms folder (`forms/@other/x.md -> /anywhere`, or
 * `-> ../@me/y.md`) would otherwise be read as that account's file and written through, to a
 * file outside the repository or another account's.
 */
async function unlinked(root: string, path: string): Promise<string> {
  const full = inside(root, path);
  const base = resolve(root);
  const real = await realpath(base).catch(() => null);
  // a repository not made yet holds no link
  if (real === null) return full;
  for (let at = full; ; at = dirname(at)) {
    const found = await realpath(at).catch(() => null);
    // (a link to nothing is there all the same: writing would create its target)
    const dangling =
      found === null &&
      (await lstat(at).then(
        () => true,
        () => false,
      ));
    if (found === null && !dangling && at !== base) continue;
    if (found !== join(real, relative(base, at)))
      raise("conflict", `${path} is a symbolic link (or passes through one) in the repository.`);
    return full;
  }
}

/** Files written under FORMDOWN_REPO_DIR without commits (the directory is not a git tree). */
export function plainRepository(root: string): FormRepository {
  return {
    kind: "plain",
    async write(path, content) {
      const file = await unlinked(root, path);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, content);
      return { sha: null };
    },
    async remove(path) {
      await rm(await unlinked(root, path), { force: true });
      return { sha: null };
    },
    async read(path) {
      try {
        const file = await unlinked(root, path);
        // a huge file beside the forms is never read whole
        if ((await stat(file)).size > REPO_FILE_BYTES) return oversized();
        return await readFile(file, "utf8");
      } catch {
        return null;
      }
    },
    async list(dir) {
      const out: string[] = [];
      const walk = async (rel: string) => {
        const entries = await readdir(inside(root, rel), { withFileTypes: true }).catch(() => []);
        for (const e of entries) {
          const child = join(rel, e.name);
          if (e.isDirectory()) await walk(child);
          // a symbolic link is no form file (unlinked)
          else if (e.isFile()) out.push(child);
        }
      };
      await walk(dir);
      return out.sort();
    },
  };
}
