import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { hasOwnForms, isExample } from "../../src/core/bundled-examples.ts";
import { translationName } from "../../src/core/translation-file.ts";

/** What changed among the form files between a commit and HEAD (SPEC §16). */
export interface FormChanges {
  /** Added or modified files, and renamed ones (with the slug they were renamed from). */
  deploy: { file: string; renamedFrom?: string }[];
  /** Files deleted since the commit: their forms are closed, never deleted. */
  removed: { file: string; slug: string }[];
}

const FORM = /^forms\/@[a-z0-9][a-z0-9-]*\/([a-z0-9]+(?:-[a-z0-9]+)*)\.md$/;

/** The slug a form file's name says, or null for a file that is not a form file. */
export const slugOf = (file: string) => FORM.exec(file)?.[1] ?? null;

/**
 * `git diff --name-status -M <since> HEAD -- forms/`: renames detected by git (content similar
 * enough), so a moved file keeps its form. Null when `since` is not a commit here (a first push,
 * a shallow clone): the caller deploys every file then.
 */
export function formChanges(since: string, cwd = "."): FormChanges | null {
  const git = (args: string[]) =>
    execFileSync("git", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  try {
    git(["rev-parse", "--verify", "--quiet", `${since}^{commit}`]);
  } catch {
    return null;
  }
  const changes: FormChanges = { deploy: [], removed: [] };
  const translated = new Set<string>();
  const lines = git(["diff", "--name-status", "-M", since, "HEAD", "--", "forms/"]);
  for (const line of lines.split("\n").filter(Boolean)) {
    const [status = "", a = "", b] = line.split("\t");
    const kind = status[0];
    if ((kind === "A" || kind === "M") && slugOf(a)) changes.deploy.push({ file: a });
    else if (kind === "D" && slugOf(a)) changes.removed.push({ file: a, slug: slugOf(a)! });
    else if (kind === "R" && b && slugOf(b)) {
      const from = slugOf(a);
      changes.deploy.push(
        from && from !== slugOf(b) ? { file: b, renamedFrom: from } : { file: b },
      );
    } else if (kind === "R" && slugOf(a)) changes.removed.push({ file: a, slug: slugOf(a)! });
    else translated.add(b ?? a);
  }
  // a translation file added, changed or removed (SPEC §20) deploys its form again, with it
  for (const file of translated) {
    const name = translationName(file);
    const form = name && `${file.slice(0, file.lastIndexOf("/") + 1)}${name.slug}.md`;
    if (!form || !existsSync(join(cwd, form))) continue;
    if (!changes.deploy.some((d) => d.file === form)) changes.deploy.push({ file: form });
  }
  // a repository with forms of its own never deploys the bundled examples (SPEC §17), nor
  // closes them when they are removed (the slug may well be the operator's own `contact`)
  const head = git(["ls-tree", "-r", "--name-only", "HEAD", "--", "forms/"]).split("\n");
  if (hasOwnForms(head.filter(Boolean))) {
    changes.deploy = changes.deploy.filter((d) => !isExample(d.file));
    changes.removed = changes.removed.filter((r) => !isExample(r.file));
  }
  return changes;
}
