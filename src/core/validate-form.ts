import type { z } from "zod";
import { type FieldIssue, fail, ok, type Result } from "./errors.ts";
import { type Form, formSchema } from "./schema.ts";

/** `["fields", 2, "show_if", "field"]` → `fields[2].show_if.field`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") out += `[${key}]`;
    else out += out === "" ? String(key) : `.${String(key)}`;
  }
  return out;
}

function message(issue: z.core.$ZodIssue): string {
  if (issue.code === "invalid_type" && issue.input === undefined) return "is required";
  if (issue.code === "unrecognized_keys") {
    return `unknown ${issue.keys.length === 1 ? "key" : "keys"} ${issue.keys.map((k) => `"${k}"`).join(", ")}`;
  }
  if (
    issue.code === "invalid_union" &&
    "note" in issue &&
    issue.note === "No matching discriminator"
  ) {
    return "type must be one of the field types (text, email, textarea, number, radio, checkbox, select, date, image, file, rating, scale, nps, yes_no, ranking, matrix, statement)";
  }
  return issue.message;
}

/** The zod issues of a failed parse as `{field: path, message}` pairs, in document order. */
export function formIssues(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => ({ field: formatPath(issue.path), message: message(issue) }));
}

/** Validates a form definition (REST body, MCP argument, parsed file) with the one schema. */
export function validateForm(input: unknown): Result<Form> {
  const parsed = formSchema.safeParse(input);
  if (parsed.success) return ok(parsed.data);
  const details = formIssues(parsed.error);
  const noun = details.length === 1 ? "problem" : "problems";
  return fail("validation_failed", `The form definition has ${details.length} ${noun}.`, {
    details,
  });
}
