import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { FormRepository } from "../context.ts";

/** Resolves a repository-relative path, refusing anything that escapes the root. */
export function inside(root: string, path: string): string {
  const base = resolve(root);
  const full = resolve(base, path);
  if (full !== base && !full.startsWith(`${base}/`))
    throw new Error(`path escapes the repository: ${path}`);
  return full;
}

/** Files written under FORMDOWN_REPO_DIR without commits (the directory is not a git tree). */
export function plainRepository(root: string): FormRepository {
  return {
    kind: "plain",
    async write(path, content) {
      const file = inside(root, path);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, content);
      return { sha: null };
    },
    async remove(path) {
      await rm(inside(root, path), { force: true });
      return { sha: null };
    },
    async read(path) {
      try {
        return await readFile(inside(root, path), "utf8");
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
          else out.push(child);
        }
      };
      await walk(dir);
      return out.sort();
    },
  };
}
