// A form's logic tests (SPEC §24) as the author wrote them: `<slug>.test.yaml` beside the form
// (a list of cases, or `tests:` holding one) or `tests:` in the form file. Each case keeps its
// line, so a failing case is reported at file:line.
import { LineCounter, parseDocument } from "yaml";
import type { FormFileError } from "../form-file-error.ts";
import { issueMessage } from "../issue-message.ts";
import { formatPath } from "../validate-form.ts";
import { type TestCase, testCaseSchema } from "./logic-schema.ts";

export interface LocatedCase {
  test: TestCase;
  file: string;
  line: number;
}

export type TestFile = { ok: true; cases: LocatedCase[] } | { ok: false; errors: FormFileError[] };

type Node = { range?: [number, number, number]; items?: unknown[] } | null | undefined;

/** The cases of a `.test.yaml` file, each at its line; problems at theirs. */
export function readTestFile(text: string, file: string): TestFile {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const lineOf = (node: Node) => (node?.range ? lines.linePos(node.range[0]).line : 1);
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    return {
      ok: false,
      errors: [
        {
          file,
          line: lines.linePos(e.pos[0]).line,
          path: "",
          message: `invalid YAML: ${e.message.split("\n")[0]}`,
        },
      ],
    };
  }
  let root = doc.contents as Node;
  let data = doc.toJS() as unknown;
  if (data && typeof data === "object" && !Array.isArray(data) && "tests" in data) {
    root = (doc.get("tests", true) as Node) ?? null;
    data = (data as { tests: unknown }).tests;
  }
  if (!Array.isArray(data))
    return {
      ok: false,
      errors: [
        {
          file,
          line: 1,
          path: "",
          message: "a test file is a list of cases: - name: …, answers: {…}, expect: {…}",
        },
      ],
    };
  const items = (root?.items ?? []) as Node[];
  return locate(data, file, (i) => lineOf(items[i]));
}

/** The cases of `tests:` in a form file; `lineOf(i)`: the line of the i-th case. */
export function locate(data: unknown[], file: string, lineOf: (i: number) => number): TestFile {
  const cases: LocatedCase[] = [];
  const errors: FormFileError[] = [];
  data.forEach((raw, i) => {
    const parsed = testCaseSchema.safeParse(raw);
    if (parsed.success) cases.push({ test: parsed.data, file, line: lineOf(i) });
    else
      for (const issue of parsed.error.issues.slice(0, 5))
        errors.push({
          file,
          line: lineOf(i),
          path: formatPath([i, ...issue.path]),
          message: issueMessage(issue, raw, testCaseSchema),
        });
  });
  return errors.length > 0 ? { ok: false, errors } : { ok: true, cases };
}
