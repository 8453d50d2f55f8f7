// The respondent's path over a compiled form (compiled.ts): the loop the page's logic chunk runs
// as the respondent answers, and walk.ts (which adds the pages and the ending) on the server, in
// tests and paths. It reads conditions
// and evaluates parsed expressions, but parses nothing and compiles nothing, so the page ships
// only this, the conditions and the evaluator (the page's JavaScript budget).
//
// Fields are judged in order. A field hidden (by its condition, its page's, or a jump) has no
// answer for what comes after it, so chains collapse; an empty answer counts as none, as in the
// stored payload. A condition reads only what comes before it (the schema refuses anything
// else), so a variable read at one field keeps its value to the end, and each is evaluated once.
import type { Field } from "../field-schema.ts";
import { answerOf } from "../show-if.ts";
import { isEmptyAnswer } from "../validate-answers.ts";
import type { Compiled, Target } from "./compiled-types.ts";
import { holds } from "./condition.ts";
import { evaluate, type Read, type Value } from "./expr-eval.ts";

/** What the walk gives the page (the fields shown, the variables); walk.ts makes the rest. */
export interface Walked {
  /** The fields shown, in order (statements included). */
  shown: Field[];
  /** Every variable's value, in declared order. */
  variables: Record<string, Value>;
  /** The ending a jump finished at, if one did. */
  jumped: string | null;
  /** Reads an answer kept, a variable or a hidden value, as the conditions do. */
  read: Read;
}

/** The jump a shown field makes with this answer: its first chosen option's, else its own. */
function jumpOf(answer: unknown, jumps: Compiled["jumps"][number]): Target | null {
  for (const [value, to] of jumps.options ?? [])
    if (Array.isArray(answer) ? answer.includes(value) : answer === value) return to;
  return jumps.field;
}

export function walkCompiled(
  fields: readonly Field[],
  c: Compiled,
  answers: Readonly<Record<string, unknown>>,
  hidden?: Readonly<Record<string, unknown>> | null,
  /** Reads a quiz's `score` from the answers kept (the server's; the page has no answer key). */
  score?: (kept: Record<string, unknown>) => number,
): Walked {
  const kept: Record<string, unknown> = {};
  const values: Record<string, Value> = {};
  const read: Read = (name) => {
    if (name.startsWith("hidden.")) {
      const v = answerOf(hidden ?? {}, name.slice(7));
      return typeof v === "string" && v ? v : null;
    }
    if (Object.hasOwn(c.variables, name)) {
      if (!Object.hasOwn(values, name)) {
        values[name] = null; // a cycle (refused by the schema) reads null, never loops
        values[name] = evaluate(c.variables[name]!, read);
      }
      return values[name]!;
    }
    if (name === "score" && score) return score(kept);
    return (answerOf(kept, name) as Value | undefined) ?? null;
  };
  const shown: Field[] = [];
  let pageShown = true;
  // pages after the one a jump left and before where it lands are skipped (an ending: all)
  let resumeAt = -1;
  let jumpedFrom = -1;
  let ending: string | null = null;
  fields.forEach((field, i) => {
    const page = c.pages[i]!;
    if (page > jumpedFrom && page < resumeAt) return;
    if (i === 0 || c.pages[i - 1] !== page)
      pageShown = !c.pageIf[page] || holds(c.pageIf[page], read);
    if (!pageShown || (field.show_if && !holds(field.show_if, read))) return;
    shown.push(field);
    const answer = answerOf(answers, field.id);
    if (!isEmptyAnswer(answer)) kept[field.id] = answer;
    if (jumpedFrom === page) return; // the first jump on a page wins
    const to = jumpOf(answer, c.jumps[i]!);
    if (!to) return;
    jumpedFrom = page;
    if ("page" in to) resumeAt = to.page;
    else {
      resumeAt = 1e9; // past every page
      ending = to.ending;
    }
  });
  const variables = Object.fromEntries(Object.keys(c.variables).map((id) => [id, read(id)]));
  return { shown, variables, jumped: ending, read };
}
