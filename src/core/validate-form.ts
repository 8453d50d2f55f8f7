import type { z } from "zod";
import { definitionSizeProblem } from "./definition-size.ts";
import { type FieldIssue, fail, ok, type Result } from "./errors.ts";
import { issueMessage } from "./issue-message.ts";
import { logicWeight, MAX_WALK_STEPS, pageLogicProblem } from "./logic/weight.ts";
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
  if (typeof id !== "string" || id === "" || id.length > 64) return base;
  const head = `fields[${path[1]}]`;
  return `${head} (${id})${base.slice(head.length)}`;
}

/** Problems listed in one answer; a definition with more says how many in its message. */
export const MAX_ISSUES = 100;

/** The zod issues of a failed parse as `{field: path, message}` pairs, in document order. */
export function formIssues(error: z.ZodError, input?: unknown): FieldIssue[] {
  return error.issues.slice(0, MAX_ISSUES).map((issue) => ({
    field: formatPath(issue.path),
    message: issueMessage(issue, input, formSchema),
  }));
}

/**
 * Why a form that parses is still refused: a walk heavier than MAX_WALK_STEPS, or more logic than
 * its page may carry (weight.ts pageLogicProblem), at the key that passes the bound ([] for the
 * walk: the whole form). A file is checked the same (form-file.ts), at that key's line.
 */
export function logicProblem(
  form: Form,
): { path: (string | number)[]; summary: string; message: string } | null {
  const steps = logicWeight(form);
  if (steps > MAX_WALK_STEPS)
    return {
      path: [],
      summary: "The form's logic is too heavy.",
      message: `one path through this form checks ${steps} conditions and expression steps; at most ${MAX_WALK_STEPS} (a step's show_if counts on each page it names, a contains rule by the longest text, a rule on a list by the most options)`,
    };
  const page = pageLogicProblem(form);
  return page && { ...page, summary: "The form's logic is too large for its page." };
}

/** Validates a form definition (REST body, MCP argument, parsed file) with the one schema. */
export function validateForm(input: unknown): Result<Form> {
  const tooBig = definitionSizeProblem(input);
  if (tooBig) {
    const details = [{ field: "(definition)", message: tooBig }];
    return fail("validation_failed", "The form definition is too large.", { details });
  }
  const parsed = formSchema.safeParse(input);
  if (parsed.success) {
    const problem = logicProblem(parsed.data);
    if (!problem) return ok(parsed.data);
    return fail("validation_failed", problem.summary, {
      details: [
        {
          field: problem.path.length ? formatPath(problem.path) : "(logic)",
          message: problem.message,
        },
      ],
    });
  }
  const details = formIssues(parsed.error, input);
  const count = parsed.error.issues.length;
  const noun = count === 1 ? "problem" : "problems";
  return fail("validation_failed", `The form definition has ${count} ${noun}.`, {
    details,
  });
}
