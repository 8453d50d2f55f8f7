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

/**
 * Every problem of a call's arguments at once, each with its path and what came instead. An
 * argument the tool does not take is named too: silently dropping a misspelt `limt` would
 * answer a different question than the one asked.
 */
export function argumentFailure(
  tool: string,
  error: z.ZodError | null,
  unknown: string[] = [],
  known: string[] = [],
): Failure {
  const takes = known.length ? `${tool} takes ${known.join(", ")}` : `${tool} takes no arguments`;
  const details = [
    ...(error ? formIssues(error) : []),
    ...unknown.map((key) => ({ field: key, message: `unknown argument; ${takes}` })),
  ];
  const listed = details.map((d) => (d.field ? `${d.field}: ${d.message}` : d.message));
  const noun = details.length === 1 ? "problem" : "problems";
  return {
    code: "validation_failed",
    error: `The arguments of ${tool} have ${details.length} ${noun}: ${listed.join("; ")}.`,
    details,
  };
}

/** The top-level argument names of a tool's input, when it is an object schema. */
export function argumentNames(input: z.ZodType): string[] | null {
  const shape = (input as unknown as { shape?: Record<string, unknown> }).shape;
  return shape && typeof shape === "object" ? Object.keys(shape) : null;
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
