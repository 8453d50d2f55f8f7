import { hasEndings, storedPath } from "../../src/core/logic/respond.ts";
import type { Form } from "../../src/core/schema.ts";
import { type QuizScore, quizFeedback } from "../../src/core/score.ts";

/**
 * The 201 answer. A quiz, or a form with endings chosen by condition (SPEC §24), names the ending
 * the page shows — the one the stored answers' path reaches, so a retried submit names it again;
 * a quiz that shows results adds the score and per-question feedback (SPEC §13).
 */
export function submitAnswer(
  form: Form,
  id: string,
  score: QuizScore | null,
  payload: Record<string, unknown>,
) {
  const show = form.type === "quiz" && form.quiz.show_results === "immediately";
  return {
    response_id: id,
    submission_id: id,
    status: "received" as const,
    ...(show && score ? { score, feedback: quizFeedback(form, payload) } : {}),
    ...(form.type === "quiz" || hasEndings(form)
      ? { ending: storedPath(form, payload).ending }
      : {}),
  };
}
