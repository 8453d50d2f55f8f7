// Form files: Markdown with a YAML header. The one core module that touches a parser with
// Node roots (gray-matter); the page runtime never imports it.
import matter from "gray-matter";
import { definitionSizeProblem } from "./definition-size.ts";
import {
  longestHeaderBlank,
  MAX_FORM_BYTES,
  MAX_HEADER_BLANKS,
  overFormBytes,
} from "./form-bounds.ts";
import type { FormFileError } from "./form-file-error.ts";
import { type Form, formSchema } from "./schema.ts";
import { describePath, formatPath, formIssues, logicProblem, MAX_ISSUES } from "./validate-form.ts";
import { locateLine, yamlLocator } from "./yaml-locate.ts";

export { type FormFileError, formatFormFileError } from "./form-file-error.ts";

export type FormFileResult = { ok: true; form: Form } | { ok: false; errors: FormFileError[] };

const OPEN = /^\uFEFF?---[ \t]*\r?\n/;

/** The YAML header (as data) and the Markdown body of a form or translation file. */
export type Header =
  | { ok: true; data: Record<string, unknown>; body: string }
  | { ok: false; errors: FormFileError[] };

/** Splits a file into its YAML header and Markdown body; a missing or broken header is an error. */
export function readHeader(text: string, file: string): Header {
  if (!OPEN.test(text)) {
    return {
      ok: false,
      errors: [
        {
          file,
          line: 1,
          path: "",
          message: "a form file starts with a YAML header between --- lines",
        },
      ],
    };
  }
  if (overFormBytes(text)) {
    const message = `the form file is over ${MAX_FORM_BYTES / 1024} KB`;
    return { ok: false, errors: [{ file, line: 1, path: "", message }] };
  }
  const blanks = longestHeaderBlank(text);
  if (blanks > MAX_HEADER_BLANKS) {
    const message = `the header holds ${blanks.toLocaleString("en-US")} blank characters in a row; at most ${MAX_HEADER_BLANKS.toLocaleString("en-US")}`;
    return { ok: false, errors: [{ file, line: 1, path: "", message }] };
  }
  let data: Record<string, unknown>;
  let body: string;
  try {
    // Passing options bypasses gray-matter's cache, which would share parsed objects.
    const parsed = matter(text, { excerpt: false });
    data = parsed.data as Record<string, unknown>;
    body = parsed.content;
  } catch (error) {
    const mark = (error as { mark?: { line?: number } }).mark;
    const reason = (error as { reason?: string }).reason ?? "the YAML header cannot be read";
    // gray-matter hands js-yaml the text from the end of the opening `---`, so js-yaml's
    // 0-based line 0 is the file's line 1
    return {
      ok: false,
      errors: [{ file, line: (mark?.line ?? 0) + 1, path: "", message: `invalid YAML: ${reason}` }],
    };
  }
  // before anything walks the header: an alias bomb is refused here, in milliseconds
  const tooBig = definitionSizeProblem(data);
  if (tooBig) return { ok: false, errors: [{ file, line: 1, path: "", message: tooBig }] };
  const bad = unstorableAt(data);
  if (bad) {
    const message =
      'text must be well-formed Unicode, without NUL (U+0000) or a lone surrogate (a YAML escape such as "\\ud800" or "\\0" makes one)';
    return {
      ok: false,
      errors: [{ file, line: keyLine(text, bad), path: formatPath(bad), message }],
    };
  }
  return { ok: true, data, body };
}

/**
 * The key path of the first string (or key) no database can store: YAML's escapes (`"\ud800"`,
 * `"\0"`) make a lone surrogate or a NUL out of well-formed text, which jsonb refuses (a 500 where
 * the author's mistake deserves its line). Walked after the size check, so it is bounded.
 */
function unstorableAt(value: unknown): (string | number)[] | null {
  const bad = (text: string) => text.includes("\0") || !text.isWellFormed();
  if (typeof value === "string") return bad(value) ? [] : null;
  // the path is built on the way out, for the one string found
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = unstorableAt(value[i]);
      if (found) return [i, ...found];
    }
  } else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (bad(key)) return [key];
      const found = unstorableAt(item);
      if (found) return [key, ...found];
    }
  }
  return null;
}

/** Parses a form file into a validated form; errors point at the line of the offending key. */
export function parseFormFile(text: string, file = "form.md"): FormFileResult {
  const header = readHeader(text, file);
  if (!header.ok) return header;
  const { data, body } = header;
  if ("body" in data) {
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
  }
  const input = body.trim() === "" ? data : { ...data, body };
  const parsed = formSchema.safeParse(input, { reportInput: true });
  const yaml = () => text.replace(OPEN, "").split(/\r?\n---/)[0] ?? "";
  if (parsed.success) {
    // the bounds on its walk and its page's logic, as validateForm has them
    const problem = logicProblem(parsed.data);
    if (!problem) return { ok: true, form: parsed.data };
    const { path, message } = problem;
    const located = path.length > 0 ? locateLine(yaml(), path) : null;
    const at = path.length > 0 ? formatPath(path) : "(logic)";
    const line = located === null ? 1 : located + 1;
    return { ok: false, errors: [{ file, line, path: at, where: at, message }] };
  }
  const messages = formIssues(parsed.error, input);
  // the header read once for every issue located
  const locate = yamlLocator(yaml());
  const errors = parsed.error.issues.slice(0, MAX_ISSUES).map((issue, i) => {
    const located = issue.path.length > 0 ? locate(issue.path) : null;
    const missing = issue.code === "invalid_type" && issue.input === undefined;
    // a missing key has no line of its own: report it at the opening `---`
    const line = located === null || (missing && issue.path.length <= 1) ? 1 : located + 1;
    return {
      file,
      line,
      path: formatPath(issue.path),
      where: describePath(issue.path, input),
      message: messages[i]!.message,
    };
  });
  return { ok: false, errors };
}

/** The file line of a key path in a form file's header (1 when it is not written there). */
export function keyLine(text: string, path: readonly PropertyKey[]): number {
  const yaml = text.replace(OPEN, "").split(/\r?\n---/)[0] ?? "";
  const located = locateLine(yaml, path);
  return located === null ? 1 : located + 1;
}
