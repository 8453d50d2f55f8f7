// The logic tests of form files (SPEC §24): each form's `tests:` and its `<slug>.test.yaml`,
// every case with its file and line, run offline on the core (`formdown test`, the validate
// workflow and its pull-request comment).
import { readFile } from "node:fs/promises";
import { type FormFileError, keyLine, parseFormFile } from "../../src/core/form-file.ts";
import { type CaseResult, runCase } from "../../src/core/logic/cases.ts";
import { type LocatedCase, locate, readTestFile } from "../../src/core/logic/test-file.ts";
import type { Form } from "../../src/core/schema.ts";
import { isTranslationFile } from "../../src/core/translation-file.ts";
import { usage } from "./api.ts";

export interface FormTests {
  /** The form file. */
  file: string;
  form: Form | null;
  /** Problems reading the form or its test file (each at file:line). */
  errors: FormFileError[];
  cases: LocatedCase[];
}

export interface TestedCase extends CaseResult {
  file: string;
  line: number;
}

const TEST_FILE = /\.test\.ya?ml$/;

/** The form file a name stands for: the form itself, or the form a test file is beside. */
const formOf = (file: string) => (TEST_FILE.test(file) ? file.replace(TEST_FILE, ".md") : file);

const read = (file: string) => readFile(file, "utf8").catch(() => null);

/** Each named form (or test file's form) with its cases; forms without cases are left out. */
export async function formTests(files: readonly string[]): Promise<FormTests[]> {
  const forms = [...new Set(files.filter((f) => !isTranslationFile(f)).map(formOf))];
  const out: FormTests[] = [];
  for (const file of forms) {
    const text = await read(file);
    if (text === null) throw usage(`cannot read ${file}`);
    const parsed = parseFormFile(text, file);
    const entry: FormTests = { file, form: parsed.ok ? parsed.form : null, errors: [], cases: [] };
    if (!parsed.ok) entry.errors.push(...parsed.errors);
    const own = parsed.ok ? (parsed.form.tests ?? []) : [];
    if (own.length > 0) {
      const located = locate(own, file, (i) => keyLine(text, ["tests", i]));
      if (located.ok) entry.cases.push(...located.cases);
    }
    const testFile = file.replace(/\.md$/, ".test.yaml");
    const tests = await read(testFile);
    if (tests !== null) {
      const located = readTestFile(tests, testFile);
      if (located.ok) entry.cases.push(...located.cases);
      else entry.errors.push(...located.errors);
    }
    if (entry.cases.length > 0 || entry.errors.length > 0) out.push(entry);
  }
  return out;
}

/** Runs every case of a form; a form that does not parse has none run (its errors say why). */
export function runFormTests(entry: FormTests): TestedCase[] {
  const form = entry.form;
  if (!form) return [];
  return entry.cases.map((c) => ({ ...runCase(form, c.test), file: c.file, line: c.line }));
}

/** `"name": path: expected X, got Y` for each failure of a case. */
export function failureLines(c: TestedCase): string[] {
  const show = (v: unknown) => (v === undefined ? "nothing" : JSON.stringify(v));
  return c.failures.map(
    (f) =>
      `${c.file}:${c.line}: ${JSON.stringify(c.name)}: ${f.path}: expected ${show(f.expected)}, got ${show(f.got)}`,
  );
}
