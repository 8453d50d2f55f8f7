import { readdir, readFile } from "node:fs/promises";
import { join, normalize } from "node:path";
import { operatorForms } from "../../src/core/bundled-examples.ts";
import { type FormFileError, keyLine, parseFormFile } from "../../src/core/form-file.ts";
import { duplicateSlugs, type PlacedForm, placeProblems } from "../../src/core/form-location.ts";
import type { Form } from "../../src/core/schema.ts";
import { isTranslationFile } from "../../src/core/translation-file.ts";
import { usage } from "./api.ts";
import { checkTranslations } from "./check-translations.ts";

export interface CheckedFile {
  file: string;
  text: string;
  form: Form | null;
  /** A form, or a translation of one (`<slug>.<lang>.md`, SPEC §20). */
  kind: "form" | "translation";
  errors: FormFileError[];
  /** What deploy accepts but an author should see: a string a translation lacks. */
  warnings: FormFileError[];
}

/**
 * Every forms/@<handler>/*.md under `root` (forms and translations): what a bare `formdown
 * validate`, `plan` or `deploy` takes. The bundled examples (forms/@me/…) only when there is no
 * form of the repository's own, as the build and the start-up deploy do (SPEC §17): a deploy
 * would otherwise publish them under the caller's account, and an own `contact` would clash.
 */
export async function formFiles(root = "."): Promise<string[]> {
  const out: string[] = [];
  const dir = join(root, "forms");
  for (const handler of await readdir(dir, { withFileTypes: true }).catch(() => [])) {
    if (!handler.isDirectory() || !handler.name.startsWith("@")) continue;
    for (const name of (await readdir(join(dir, handler.name))).sort())
      if (name.endsWith(".md")) out.push(join("forms", handler.name, name));
  }
  if (out.length === 0) throw usage("no form files given, and none under forms/@<handler>/");
  return operatorForms(out);
}

/**
 * Reads and checks form files the way deploy would: each file against the schema, its place
 * (forms/@<handler>/<slug>.md), and all of them together for duplicate slugs; then each form's
 * translation files beside it, and translation files named on their own.
 */
export async function checkFiles(files: string[]): Promise<CheckedFile[]> {
  const checked: CheckedFile[] = [];
  const placed: PlacedForm[] = [];
  const translations = files.filter(isTranslationFile).map(normalize);
  for (const file of translations)
    if ((await readFile(file, "utf8").catch(() => null)) === null)
      throw usage(`cannot read ${file}`);
  for (const file of files.filter((f) => !isTranslationFile(f))) {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch {
      throw usage(`cannot read ${file}`);
    }
    const parsed = parseFormFile(text, file);
    if (!parsed.ok) {
      checked.push({ file, text, form: null, kind: "form", errors: parsed.errors, warnings: [] });
      continue;
    }
    const where = { file, slug: parsed.form.slug, slugLine: keyLine(text, ["slug"]) };
    placed.push(where);
    const errors = placeProblems(where);
    checked.push({ file, text, form: parsed.form, kind: "form", errors, warnings: [] });
  }
  for (const e of duplicateSlugs(placed)) checked.find((c) => c.file === e.file)?.errors.push(e);
  return [...checked, ...(await checkTranslations(checked, translations))];
}
