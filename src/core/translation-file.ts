// Translation files (SPEC §20): forms/@<handler>/<slug>.<lang>.md beside the form, a YAML header
// with only the strings and the translated body below it. Never a form of its own: every place
// that lists form files skips the names `isTranslationFile` recognises.
import { type FormFileError, readHeader } from "./form-file.ts";
import { issueMessage } from "./issue-message.ts";
import { LOCALES } from "./locales/codes.ts";
import { andMore, MAX_PROBLEMS } from "./problem-list.ts";
import { type Form, SLUG } from "./schema.ts";
import { formStrings } from "./translation.ts";
import { checkTranslation } from "./translation-check.ts";
import { type Translation, translationSchema } from "./translation-schema.ts";
import { yamlLocator } from "./yaml-locate.ts";

/** `<slug>.<lang>.md`: a file name with a language before `.md` (any two-to-three letter code). */
const NAME = /^([a-z0-9]+(?:-[a-z0-9]+)*)\.([a-z]{2,3}(?:-[A-Za-z]{2,4})?)\.md$/;

/** The slug and language a translation file's name (or path) gives, or null for any other file. */
export function translationName(path: string): { slug: string; lang: string } | null {
  const name = path.replace(/\\/g, "/").split("/").pop() ?? "";
  const m = NAME.exec(name);
  return m ? { slug: m[1]!, lang: m[2]! } : null;
}

/** Whether a path names a translation file (`event.de.md`) rather than a form (`event.md`). */
export const isTranslationFile = (path: string): boolean => translationName(path) !== null;

/** Whether a language code is one the pages speak. */
export const isLocale = (lang: string): boolean => (LOCALES as readonly string[]).includes(lang);

export type TranslationFileResult =
  | { ok: true; translation: Translation }
  /** At most 100 errors; `more` counts the rest. */
  | { ok: false; errors: FormFileError[]; more?: number };

const OPEN = /^\uFEFF?---[ \t]*\r?\n/;
const headerOf = (text: string) => text.replace(OPEN, "").split(/\r?\n---/)[0] ?? "";

/**
 * The file line of any key path in a translation file's header (1 when it is not written
 * there), the header read once for every path asked.
 */
export function translationLines(text: string): (path: readonly PropertyKey[]) => number {
  const locate = yamlLocator(headerOf(text));
  return (path) => {
    const located = locate(path);
    return located === null ? 1 : located + 1;
  };
}

/** Parses a translation file against the translation schema (not yet against its form). */
export function parseTranslationFile(text: string, file: string): TranslationFileResult {
  const header = readHeader(text, file);
  if (!header.ok) return header;
  if ("body" in header.data)
    return {
      ok: false,
      errors: [
        {
          file,
          line: 1,
          path: "body",
          message: "the body is the Markdown below the header, not a key",
        },
      ],
    };
  const input = header.body.trim() === "" ? header.data : { ...header.data, body: header.body };
  const parsed = translationSchema.safeParse(input);
  if (parsed.success) return { ok: true, translation: parsed.data };
  const { issues } = parsed.error;
  const lineOf = translationLines(text);
  return {
    ok: false,
    errors: issues.slice(0, MAX_PROBLEMS).map((issue) => ({
      file,
      // an unknown key has a line of its own, below its parent's
      line: lineOf(
        issue.code === "unrecognized_keys" ? [...issue.path, issue.keys[0]!] : issue.path,
      ),
      path: issue.path.map(String).join("."),
      message: issueMessage(issue, input, translationSchema),
    })),
    more: Math.max(0, issues.length - MAX_PROBLEMS),
  };
}

export interface TranslationProblems {
  /** At most 100 of each; `more` counts the rest. */
  errors: FormFileError[];
  warnings: FormFileError[];
  more: { errors: number; warnings: number };
  /** The file's strings, when it parsed. */
  translation?: Translation;
}

/** The errors with a last line `…and N more` when there were more, for a list printed as it is. */
export const listedWithMore = (
  errors: FormFileError[],
  more: number,
  file: string,
): FormFileError[] =>
  more > 0 ? [...errors, { file, line: 1, path: "", message: andMore(more) }] : errors;

/**
 * The most characters a translation file of this form takes: four times the length of the form's
 * texts, 400 more per text (its key, a short option value's longer label) and 16 KB. A file the
 * size of the form's limit written for a form of three texts is refused before it is parsed: its
 * YAML alone held the event loop 20-35 ms of a core (SPEC §23, issue 41 item 2).
 */
export function translationBound(form: Form): { texts: number; chars: number } {
  const strings = formStrings(form);
  const length = strings.reduce((sum, s) => sum + s.text.length, 0);
  return { texts: strings.length, chars: 4 * length + 400 * strings.length + 16 * 1024 };
}

/**
 * Everything `formdown validate` reports about one translation file of a form: its header, its
 * language (one the form lists and the pages speak), keys naming nothing, and missing strings.
 * Linear in the file: at most 100 errors and 100 warnings are described and located (in one
 * reading of the header), the rest counted.
 */
export function checkTranslationFile(form: Form, text: string, file: string): TranslationProblems {
  const name = translationName(file);
  const errors: FormFileError[] = [];
  const none = { errors: 0, warnings: 0 };
  if (name && !SLUG.test(name.slug)) return { errors, warnings: [], more: none };
  if (name && !(form.languages ?? []).includes(name.lang as never))
    errors.push({
      file,
      line: 1,
      path: "",
      message: isLocale(name.lang)
        ? `the form ${form.slug} does not list "${name.lang}" in its languages (add it there, or remove this file)`
        : `"${name.lang}" is not a language Formdown speaks (${LOCALES.join(", ")})`,
    });
  const most = translationBound(form);
  if (text.length > most.chars) {
    const kb = (n: number) => `${Math.ceil(n / 1024)} KB`;
    const message = `the file is ${kb(text.length)}: a translation of the form's ${most.texts} texts takes at most ${kb(most.chars)} (four times their length, and room for keys)`;
    return { errors: [...errors, { file, line: 1, path: "", message }], warnings: [], more: none };
  }
  const parsed = parseTranslationFile(text, file);
  if (!parsed.ok)
    return {
      errors: [...errors, ...parsed.errors],
      warnings: [],
      more: { errors: parsed.more ?? 0, warnings: 0 },
    };
  const found = checkTranslation(form, parsed.translation, MAX_PROBLEMS - errors.length);
  const lineOf = translationLines(text);
  const at = (issue: { path: readonly string[]; message: string }): FormFileError => ({
    file,
    line: issue.path[0] === "body" ? 1 : lineOf(issue.path),
    path: issue.path.join("."),
    message: issue.message,
  });
  const byLine = (a: FormFileError, b: FormFileError) => a.line - b.line;
  return {
    errors: [...errors, ...found.errors.map(at).sort(byLine)],
    warnings: found.warnings.map(at).sort(byLine),
    more: found.more,
    ...(errors.length + found.errors.length === 0 ? { translation: parsed.translation } : {}),
  };
}
