import { readFile } from "node:fs/promises";
import { relative } from "node:path";
import { type FormFileError, keyLine, parseFormFile } from "../../../src/core/form-file.ts";
import { duplicateSlugs, placeProblems } from "../../../src/core/form-location.ts";
import type { AppContext } from "../../context.ts";
import { accountByHandler, createAccount } from "../../services/accounts.ts";
import { upsertForm } from "../../services/deploy.ts";

export interface DevFile {
  /** As shown to the author (relative to where `formdown dev` runs). */
  file: string;
  handler: string | null;
  slug: string | null;
  errors: FormFileError[];
}

const PLACE = /(?:^|\/)forms\/@([a-z0-9][a-z0-9-]*)\/([a-z0-9-]+)\.md$/;

/**
 * Reads the working tree's form files and deploys the valid ones into the throwaway database
 * (nothing is written to the repository). A broken file keeps its errors for the page to show,
 * with the slug its name promises, so its URL shows the errors rather than an older version.
 */
export async function loadDevForms(
  ctx: AppContext,
  paths: string[],
  cwd: string,
): Promise<DevFile[]> {
  const out: DevFile[] = [];
  const placed = [];
  for (const path of paths) {
    const file = relative(cwd, path) || path;
    const m = PLACE.exec(path.replace(/\\/g, "/"));
    const entry: DevFile = { file, handler: m?.[1] ?? null, slug: m?.[2] ?? null, errors: [] };
    out.push(entry);
    const text = await readFile(path, "utf8").catch(() => null);
    if (text === null) {
      entry.errors.push({ file, line: 1, path: "", message: "cannot be read" });
      continue;
    }
    const parsed = parseFormFile(text, file);
    if (!parsed.ok) {
      entry.errors = parsed.errors;
      continue;
    }
    const where = { file, slug: parsed.form.slug, slugLine: keyLine(text, ["slug"]) };
    placed.push(where);
    entry.errors = placeProblems(where);
    if (entry.errors.length > 0 || !entry.handler) continue;
    try {
      let account = await accountByHandler(ctx, entry.handler);
      if (!account) {
        await createAccount(ctx, { handler: entry.handler });
        account = await accountByHandler(ctx, entry.handler);
      }
      await upsertForm(ctx, account!, parsed.form.slug, parsed.form, { path: file, sha: null });
    } catch (error) {
      entry.errors.push({ file, line: 1, path: "", message: (error as Error).message });
    }
  }
  for (const e of duplicateSlugs(placed)) out.find((f) => f.file === e.file)?.errors.push(e);
  return out;
}
