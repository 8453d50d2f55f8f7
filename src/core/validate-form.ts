import type { z } from "zod";
import { type FieldIssue, fail, ok, type Result } from "./errors.ts";
import { issueMessage } from "./issue-message.ts";
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

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A path for people: a field is named by its id as well, `fields[2] (team_size).max`, so a
 * message never has to repeat the question's label.
 */
export function describePath(path: readonly PropertyKey[], input: unknown): string {
  const base = formatPath(path);
  const fields = isObj(input) ? input.fields : undefined;
  if (path[0] !== "fields" || typeof path[1] !== "number" || !Array.isArray(fields)) return base;
  const id = (fields[path[1]] as { id?: unknown } | undefined)?.id;
  if (typeof id !== "string" || id === "") return base;
  const head = `fields[${path[1]}]`;
  return `${head} (${id})${base.slice(head.length)}`;
}

/** The zod issues of a failed parse as `{field: path, message}` pairs, in document order. */
export function formIssues(error: z.ZodError, input?: unknown): FieldIssue[] {
  return error.issues.map((issue) => ({
    field: formatPath(issue.path),
    message: issueMessage(issue, input, formSchema),
  }));
}

/** Validates a form definition (REST body, MCP argument, parsed file) with the one schema. */
export function validateForm(input: unknown): Result<Form> {
  const parsed = formSchema.safeParse(input);
  if (parsed.success) return ok(parsed.data);
  const details = formIssues(parsed.error, input);
  const noun = details.length === 1 ? "problem" : "problems";
  return fail("validation_failed", `The form definition has ${details.length} ${noun}.`, {
    details,
  });
}
