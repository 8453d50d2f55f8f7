// The respondent's path through a form (SPEC §24): the one function the server, the logic tests
// and `formdown paths` share with the page (whose logic chunk runs walkCompiled on the form as
// the server compiled it): which fields are shown (field and page conditions, forward jumps),
// the variables' values and the ending reached, a quiz's score read from its answer key.
import type { Field } from "../field-schema.ts";
import { scoreQuiz } from "../score.ts";
import { compile, type LogicForm } from "./compiled.ts";
import { holds } from "./condition.ts";
import type { Value } from "./expr-eval.ts";
import { walkCompiled } from "./walk-path.ts";

export interface Path {
  /** The fields shown, in order (statements included). */
  shown: Field[];
  /** The pages that showed a field, in order. */
  pages: number[];
  /** The ending reached: an id of `endings`, `pass`/`fail` (quiz) or `default`. */
  ending: string;
  /** Every variable's value, in declared order. */
  variables: Record<string, Value>;
}

export function walk(
  form: LogicForm,
  answers: Readonly<Record<string, unknown>>,
  hidden?: Readonly<Record<string, unknown>> | null,
): Path {
  // in a quiz, `score` is its points (the schema keeps the name free of fields and variables),
  // read only by endings, after the last field: scored once, not once per rule that reads it
  let points: number | undefined;
  const score =
    form.type === "quiz"
      ? (kept: Record<string, unknown>) =>
          (points ??= scoreQuiz(
            { ...form, quiz: { show_results: "never", ...form.quiz } } as never,
            kept,
          )!.points)
      : undefined;
  const c = compile(form);
  const { shown, variables, jumped, read } = walkCompiled(form.fields, c, answers, hidden, score);
  const at = new Map(form.fields.map((f, i) => [f, c.pages[i]!]));
  return {
    shown,
    pages: [...new Set(shown.map((f) => at.get(f)!))],
    // a jump to an ending ends there; else the first ending whose condition holds
    ending: jumped ?? c.endings.find((e) => !e.show_if || holds(e.show_if, read))?.id ?? "default",
    variables,
  };
}
