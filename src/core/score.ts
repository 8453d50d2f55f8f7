import type { Form } from "./schema.ts";
import { answerOf, deepEqual } from "./show-if.ts";

export interface QuizScore {
  points: number;
  max_points: number;
  /** 0–100, rounded to one decimal. */
  percent: number;
  /** Null when the quiz sets no pass_percent. */
  passed: boolean | null;
}

type QuizForm = Pick<Form, "type" | "fields" | "quiz">;

/** Checkbox answers match as sets; every other answer must equal the key exactly. */
function correct(type: string, given: unknown, key: unknown): boolean {
  if (type === "checkbox" && Array.isArray(given) && Array.isArray(key)) {
    return given.length === key.length && key.every((k) => given.includes(k));
  }
  return deepEqual(given, key);
}

/** Scores a stored payload against the answer key; null for forms that are not quizzes. */
export function scoreQuiz(form: QuizForm, payload: Record<string, unknown>): QuizScore | null {
  if (form.type !== "quiz") return null;
  let points = 0;
  let max = 0;
  for (const field of form.fields) {
    if (field.answer === undefined) continue;
    max += field.points;
    if (correct(field.type, answerOf(payload, field.id), field.answer)) points += field.points;
  }
  const percent = max === 0 ? 0 : Math.round((points / max) * 1000) / 10;
  const pass = form.quiz.pass_percent;
  // judged on the exact ratio: 59.96% rounds to 60.0 but does not pass at 60
  const passed = pass === undefined ? null : points * 100 >= pass * max;
  return { points, max_points: max, percent, passed };
}

/** One question's result, shown after submitting when the quiz shows results. */
export interface QuestionFeedback {
  field: string;
  correct: boolean;
  explanation?: string;
}

/**
 * Per scored question: right or wrong, with the author's explanation. Computed after the submit,
 * so the answer key itself never reaches the page.
 */
export function quizFeedback(form: QuizForm, payload: Record<string, unknown>): QuestionFeedback[] {
  if (form.type !== "quiz") return [];
  return form.fields.flatMap((field) =>
    field.answer === undefined
      ? []
      : [
          {
            field: field.id,
            correct: correct(field.type, answerOf(payload, field.id), field.answer),
            ...(field.explanation ? { explanation: field.explanation } : {}),
          },
        ],
  );
}
