import type { z } from "zod";
import { type FieldIssue, fail, ok, type Result } from "./errors.ts";
import { FIELD_TYPES, type Form, formSchema } from "./schema.ts";

/** `["fields", 2, "show_if", "field"]` → `fields[2].show_if.field`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}

/** How an argument reads in a message: "a string", "an array", "null". */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" || type === "undefined" ? `an ${type}` : `a ${type}`;
}

const EXPECTED: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "a boolean (true or false)",
  object: "an object",
  record: "an object",
  array: "an array",
};

const shown = (value: unknown) => JSON.stringify(value)?.slice(0, 60) ?? String(value);

/**
 * One issue as an author or agent can act on it: what was expected and what came. Needs the
 * parse to run with `reportInput: true`, so that a present value of the wrong type is never
 * reported as missing.
 */
function message(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_type") {
    if (issue.input === undefined) return "is required";
    return `expected ${EXPECTED[issue.expected] ?? issue.expected}, got ${describeValue(issue.input)}`;
  }
  if (issue.code === "unrecognized_keys") {
    return `unknown ${issue.keys.length === 1 ? "key" : "keys"} ${issue.keys.map((k) => `"${k}"`).join(", ")}`;
  }
  if (
    issue.code === "invalid_union" &&
    "note" in issue &&
    issue.note === "No matching discriminator"
  ) {
    const type = (issue.input as { type?: unknown } | undefined)?.type;
    const got = type === undefined ? "" : `, got ${shown(type)}`;
    return `type must be one of the field types (${FIELD_TYPES.join(", ")})${got}`;
  }
  if (issue.code === "invalid_value") {
    const got = "input" in issue && issue.input !== undefined ? `, got ${shown(issue.input)}` : "";
    return `expected one of ${issue.values.map((v) => shown(v)).join(", ")}${got}`;
  }
  if (issue.code === "too_big" && typeof issue.input === "number")
    return `expected at most ${issue.maximum}${issue.inclusive === false ? " (exclusive)" : ""}, got ${issue.input}`;
  if (issue.code === "too_small" && typeof issue.input === "number")
    return `expected at least ${issue.minimum}${issue.inclusive === false ? " (exclusive)" : ""}, got ${issue.input}`;
  return issue.message;
}

/** The zod issues of a failed parse as `{field: path, message}` pairs, in document order. */
export function formIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({ field: formatPath(issue.path), message: message(issue) }));
}

/** Validates a form definition (REST body, MCP argument, parsed file) with the one schema. */
export function validateForm(input: unknown): Result<Form> {
  const parsed = formSchema.safeParse(input, { reportInput: true });
  if (parsed.success) return ok(parsed.data);
  const details = formIssues(parsed.error);
  const noun = details.length === 1 ? "problem" : "problems";
  return fail("validation_failed", `The form definition has ${details.length} ${noun}.`, {
    details,
  });
}
