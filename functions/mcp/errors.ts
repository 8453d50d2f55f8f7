import type { z } from "zod";
import { AppError, type Failure } from "../../src/core/errors.ts";
import { formIssues } from "../../src/core/validate-form.ts";

/**
 * Failures are written once, in REST's words; an agent acts through tools, so the MCP surface
 * says which tool to use where the sentence names an HTTP verb (REST keeps its wording).
 */
const TOOL_WORDING: [RegExp, string][] = [
  [/\bwith PATCH\b/g, "with update_form (or deploy_form)"],
  [/\bthrough PATCH\b/g, "through update_form"],
  [/\bPUT \/api\/forms\/\{?slug\}?/g, "deploy_form"],
];

export function inToolWords(failure: Failure): Failure {
  let error = failure.error;
  for (const [pattern, words] of TOOL_WORDING) error = error.replace(pattern, words);
  return { ...failure, error };
}

/** Every problem of a call's arguments at once, each with its path and what came instead. */
export function argumentFailure(tool: string, error: z.ZodError): Failure {
  const details = formIssues(error);
  const listed = details.map((d) => (d.field ? `${d.field}: ${d.message}` : d.message));
  const noun = details.length === 1 ? "problem" : "problems";
  return {
    code: "validation_failed",
    error: `The arguments of ${tool} have ${details.length} ${noun}: ${listed.join("; ")}.`,
    details,
  };
}

/** Runs a service call and renames the paths of its validation details into the tool's terms. */
export async function withPathPrefix<T>(
  run: () => Promise<T>,
  rename: (path: string) => string,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof AppError && error.failure.details) {
      throw new AppError({
        ...error.failure,
        details: error.failure.details.map((d) => ({ ...d, field: rename(d.field) })),
      });
    }
    throw error;
  }
}
