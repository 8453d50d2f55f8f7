// The translation files of checked forms (SPEC §20): forms/@<handler>/<slug>.<lang>.md beside
// each form, found on disk whether or not they were named, and checked against their form.
import { readdir, readFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { type FormFileError, keyLine, parseFormFile } from "../../src/core/form-file.ts";
import type { Form } from "../../src/core/schema.ts";
import {
  checkTranslationFile,
  listedWithMore,
  translationName,
} from "../../src/core/translation-file.ts";
import type { CheckedFile } from "./check-files.ts";

const read = (file: string) => readFile(file, "utf8").catch(() => null);

/** The translation files in a form's folder that belong to it (`event.de.md` for `event.md`). */
async function siblings(formFile: string): Promise<Map<string, string>> {
  const dir = dirname(formFile);
  const base = basename(formFile, ".md");
  const found = new Map<string, string>();
  for (const name of (await readdir(dir).catch(() => [])).sort()) {
    const t = translationName(name);
    if (t?.slug === base) found.set(t.lang, dir === "." ? name : join(dir, name));
  }
  return found;
}

/** One translation file checked against its form. */
async function checkOne(form: Form, file: string): Promise<CheckedFile> {
  const text = (await read(file)) ?? "";
  const { errors, warnings, more } = checkTranslationFile(form, text, file);
  return {
    file,
    text,
    form: null,
    kind: "translation",
    // at most 100 of each, then how many more
    errors: listedWithMore(errors, more.errors, file),
    warnings: listedWithMore(warnings, more.warnings, file),
  };
}

/**
 * The translations of the given forms (each listed language needs its file; each file's language
 * must be listed), and of translation files named on their own (checked against the form beside
 * them). Returns the forms' new errors in place and the translation files' results in order.
 */
export async function checkTranslations(
  forms: CheckedFile[],
  named: string[],
): Promise<CheckedFile[]> {
  const out: CheckedFile[] = [];
  const done = new Set<string>();
  for (const c of forms) {
    if (!c.form) continue;
    const files = await siblings(c.file);
    (c.form.languages ?? []).forEach((lang, i) => {
      if (files.has(lang)) return;
      c.errors.push(missing(c.file, c.text, lang, i));
    });
    for (const file of files.values()) {
      out.push(await checkOne(c.form, file));
      done.add(file);
    }
  }
  for (const file of named.filter((f) => !done.has(f))) out.push(await alone(file));
  return out;
}

const missing = (file: string, text: string, lang: string, i: number): FormFileError => ({
  file,
  line: keyLine(text, ["languages", i]),
  path: `languages[${i}]`,
  message: `"${lang}" has no translation file: add ${join(dirname(file), `${basename(file, ".md")}.${lang}.md`)}`,
});

/** A translation file named without its form: checked against the form file beside it. */
async function alone(file: string): Promise<CheckedFile> {
  const name = translationName(file)!;
  const formFile = join(dirname(file), `${name.slug}.md`);
  const text = await read(formFile);
  const parsed = text === null ? null : parseFormFile(text, formFile);
  if (parsed?.ok) return checkOne(parsed.form, file);
  const message =
    text === null
      ? `a translation file lives beside its form, but there is no ${formFile}`
      : `its form ${formFile} is not valid; validate it first`;
  const own = (await read(file)) ?? "";
  return {
    file,
    text: own,
    form: null,
    kind: "translation",
    errors: [{ file, line: 1, path: "", message }],
    warnings: [],
  };
}
