import type { Field } from "./field-schema.ts";
import { answerOf } from "./show-if.ts";
import { isEmptyAnswer, type Payload } from "./validate-answers.ts";

/**
 * The answers a submit did not store, in form order: given for a field hidden by its show_if
 * (or a statement, which records nothing). The submit says so (`ignored`) rather than dropping
 * them silently (SPEC §18). Unknown ids never get here: they fail validation.
 */
export function ignoredAnswers(fields: readonly Field[], answers: unknown, payload: Payload) {
  if (!answers || typeof answers !== "object") return [];
  const given = answers as Record<string, unknown>;
  return fields
    .filter((f) => !(f.id in payload) && !isEmptyAnswer(answerOf(given, f.id)))
    .map((f) => f.id);
}
