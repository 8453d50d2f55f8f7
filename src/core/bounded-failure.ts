// Every error answer is at most 64 KB (SPEC §23), whatever made it: its sentence and each detail
// are cut short, at most 100 details are listed (the rest counted in the sentence), and details
// stop where the answer would pass its budget. The lists that can grow are capped where they are
// made (validate-answers.ts, translation-check.ts); this is the mapper's guarantee for the rest.
import type { Failure, FieldIssue } from "./errors.ts";
import { andMore, MAX_PROBLEMS } from "./problem-list.ts";
import { clip } from "./quote.ts";

/** At most this many bytes in an error answer's body. */
export const MAX_ERROR_BYTES = 64 * 1024;

const MAX_SENTENCE = 2_000;
const MAX_DETAIL = 1_000;
const encoder = new TextEncoder();
const bytes = (value: unknown) => encoder.encode(JSON.stringify(value)).length;

/** The failure as an answer may carry it: within MAX_ERROR_BYTES with room for code and headers. */
export function boundedFailure(failure: Failure): Failure {
  const error = clip(failure.error, MAX_SENTENCE);
  if (!failure.details) return error === failure.error ? failure : { ...failure, error };
  // the sentence, the code and the frame, then the details while they fit
  let budget = MAX_ERROR_BYTES - bytes(error) - 512;
  const details: FieldIssue[] = [];
  for (const d of failure.details.slice(0, MAX_PROBLEMS)) {
    const detail = { field: clip(d.field, MAX_DETAIL), message: clip(d.message, MAX_DETAIL) };
    budget -= bytes(detail) + 1;
    if (budget < 0) break;
    details.push(detail);
  }
  const more = failure.details.length - details.length;
  return {
    ...failure,
    error: more > 0 ? `${error} (${details.length} listed, ${andMore(more)})` : error,
    details,
  };
}
