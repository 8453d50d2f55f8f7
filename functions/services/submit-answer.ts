// The submit's answers along their path and its 201 (SPEC §5, §24). A form with logic beyond
// plain show_if rules loads the logic core when it is first submitted to (a dynamic import); a
// form without it is validated as before, so a cold start never loads the logic
// (test/gitops/serverless.test.ts).
import { unwrap } from "../../src/core/errors.ts";
import { needsPath } from "../../src/core/logic/needs-path.ts";
import type { Form } from "../../src/core/schema.ts";
import { type QuizScore, quizFeedback } from "../../src/core/score.ts";
import { type Payload, validateAnswers } from "../../src/core/validate-answers.ts";
import { ownTurn } from "../http/body.ts";

const logic = () => import("../../src/core/logic/respond.ts");

/**
 * A walk of a heavy form (variables of up to 256 KB of expressions: 80-100 ms) waits for a turn of
 * the event loop of its own: thirty anonymous submits of such a form that resumed together held
 * the loop 1.2 s (third review). A form of a few hundred steps goes at once.
 */
async function turnFor(form: Form): Promise<void> {
  const { logicWeight, TURN_STEPS } = await import("../../src/core/logic/weight.ts");
  if (logicWeight(form) > TURN_STEPS / 10) await ownTurn();
}

/** The ending a quiz or a form with endings names in its 201 (null: a form that has none). */
const names = (form: Form, hasEndings: (f: Form) => boolean) =>
  form.type === "quiz" || hasEndings(form);

/**
 * The payload to store, the ending to name, and what the response records beside its payload
 * (its ending and variables: the server's, never the body's).
 */
export async function checkedAnswers(
  form: Form,
  fields: unknown,
  hidden: unknown,
): Promise<{
  payload: Payload;
  ending: string | null;
  recorded: { ending?: string | null; variables?: string | null };
}> {
  if (!needsPath(form)) {
    const { payload } = unwrap(validateAnswers(form, fields, hidden));
    return { payload, ending: form.type === "quiz" ? "default" : null, recorded: {} };
  }
  const { checkResponse, hasEndings, recorded } = await logic();
  await turnFor(form);
  const { payload, path } = unwrap(checkResponse(form, fields, hidden));
  return {
    payload,
    ending: names(form, hasEndings) ? path.ending : null,
    recorded: recorded(form, path),
  };
}

/** The ending a stored payload's path reached: what a retried submit names again. */
export async function storedEnding(form: Form, payload: Payload): Promise<string | null> {
  if (!needsPath(form)) return form.type === "quiz" ? "default" : null;
  const { hasEndings, storedPath } = await logic();
  await turnFor(form);
  return names(form, hasEndings) ? storedPath(form, payload).ending : null;
}

/**
 * The 201 answer. A quiz, or a form with endings chosen by condition (SPEC §24), names the ending
 * the page shows — the one its answers' path reached (`ending`, from the caller, which walked
 * it: see pathOf in submit.ts); a quiz that shows results adds the score and per-question
 * feedback (SPEC §13).
 */
export function submitAnswer(
  form: Form,
  id: string,
  score: QuizScore | null,
  payload: Record<string, unknown>,
  ending: string | null,
) {
  const show = form.type === "quiz" && form.quiz.show_results === "immediately";
  return {
    response_id: id,
    submission_id: id,
    status: "received" as const,
    ...(show && score ? { score, feedback: quizFeedback(form, payload) } : {}),
    ...(ending !== null ? { ending } : {}),
  };
}
