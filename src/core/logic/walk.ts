// The respondent's path through a form (SPEC §24), the one function the page, the server, the
// logic tests and `formdown paths` share: which fields are shown (field and page conditions,
// forward jumps), the variables' values and the ending reached.
//
// Fields are judged in order. A field hidden (by its condition, its page's, or a jump) has no
// answer for what comes after it, so chains collapse. A condition reads only what comes before
// it (the schema refuses anything else), so a variable read at one field keeps its value to the
// end, and each is evaluated once.
import type { Field } from "../field-schema.ts";
import { optionValue } from "../options.ts";
import { scoreQuiz } from "../score.ts";
import { answerOf } from "../show-if.ts";
import { compile, DEFAULT_ENDING, type LogicForm, type Target } from "./compiled.ts";
import { holds } from "./condition.ts";
import { evaluate, type Read, type Value } from "./expr-eval.ts";

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

const own = (record: Readonly<Record<string, unknown>> | undefined, key: string): unknown =>
  record && Object.hasOwn(record, key) ? record[key] : undefined;

/** The jump a shown field makes with this answer: its chosen option's, else its own. */
function jumpOf(field: Field, answer: unknown, jumps: ReturnType<typeof compile>["jumps"][number]) {
  if (jumps.options && answer !== undefined) {
    if (Array.isArray(answer)) {
      // a checkbox: the first chosen option, in the options' order, that jumps
      for (const o of "options" in field ? field.options : []) {
        const t = answer.includes(optionValue(o)) ? jumps.options.get(optionValue(o)) : undefined;
        if (t) return t;
      }
    } else if (typeof answer === "string") {
      const t = jumps.options.get(answer);
      if (t) return t;
    }
  }
  return jumps.field;
}

export function walk(
  form: LogicForm,
  answers: Readonly<Record<string, unknown>>,
  hidden?: Readonly<Record<string, unknown>> | null,
): Path {
  const c = compile(form);
  const kept: Record<string, unknown> = {};
  const values = new Map<string, Value>();
  const declared = new Map(c.variables.map((v) => [v.id, v.node]));
  let score: number | null = null;
  const read: Read = (name) => {
    if (name.startsWith("hidden.")) {
      const v = own(hidden ?? undefined, name.slice(7));
      return typeof v === "string" && v !== "" ? v : null;
    }
    if (declared.has(name)) {
      if (!values.has(name)) {
        values.set(name, null); // a cycle (refused by the schema) reads null, never loops
        const node = declared.get(name);
        values.set(name, node ? evaluate(node, read) : null);
      }
      return values.get(name)!;
    }
    // in a quiz, `score` is its points (the schema keeps the name free of fields and variables)
    if (name === "score" && form.type === "quiz") {
      score ??= scoreQuiz(
        { ...form, quiz: { show_results: "never", ...form.quiz } } as never,
        kept,
      )!.points;
      return score;
    }
    return (own(kept, name) as Value | undefined) ?? null;
  };
  const shown: Field[] = [];
  const pages: number[] = [];
  let pageShown = true;
  let resumeAt = -1;
  let jumpedFrom = -1;
  let ending: string | null = null;
  form.fields.forEach((field, i) => {
    const page = c.pages[i]!;
    const opens = i === 0 || c.pages[i - 1] !== page;
    if (page > jumpedFrom && (ending !== null || page < resumeAt)) return;
    if (opens) pageShown = (c.pageIf.get(page) ?? []).every((x) => holds(x, read));
    if (!pageShown || (field.show_if && !holds(field.show_if, read))) return;
    shown.push(field);
    if (pages.at(-1) !== page) pages.push(page);
    const answer = answerOf(answers, field.id);
    if (answer !== undefined) kept[field.id] = answer;
    if (jumpedFrom === page) return; // the first jump on a page wins
    const to: Target | null = jumpOf(field, answer, c.jumps[i]!);
    if (!to) return;
    jumpedFrom = page;
    if ("page" in to) resumeAt = to.page;
    else ending = to.ending;
  });
  const variables = Object.fromEntries(c.variables.map((v) => [v.id, read(v.id)]));
  ending ??= c.endings.find((e) => !e.show_if || holds(e.show_if, read))?.id ?? DEFAULT_ENDING;
  return { shown, pages, ending, variables };
}
