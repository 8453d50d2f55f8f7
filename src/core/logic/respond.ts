// A submit's answers checked along the respondent's path (SPEC §24), as the server stores them:
// the payload (only the fields the path shows), the ending reached and the variables' values,
// all computed here from the answers; nothing the body says about them is taken.
import { ok, type Result } from "../errors.ts";
import type { Field } from "../field-schema.ts";
import { type Payload, validateAnswers } from "../validate-answers.ts";
import type { LogicForm } from "./compiled.ts";
import { type Path, walk } from "./walk.ts";

type RespondForm = LogicForm & { fields: Field[]; hidden?: string[] };

/** The hidden values as a response keeps them: declared names, text, at most 500 characters. */
export function keptHidden(declared: readonly string[] | undefined, given: unknown) {
  const kept: Record<string, string> = {};
  const from = given && typeof given === "object" ? (given as Record<string, unknown>) : {};
  for (const name of declared ?? []) {
    const v = Object.hasOwn(from, name) ? from[name] : undefined;
    if (typeof v === "string" && v !== "") kept[name] = v.slice(0, 500);
  }
  return kept;
}

/**
 * The answers as the walk reads them: a text cut one past the most its field takes (10,000 where
 * the field names no `max_length`), a list or a map one item past its field's options or rows. A
 * longer one is refused by validation anyway, and rules read all of it: `contains` lower-cases a
 * text (6,000 rules on a 900 KB answer held the event loop 6 s), `includes` looks through a list
 * (6,000 rules on an anonymous list of 300,000 items: 73 s).
 */
export function walkedAnswers(form: RespondForm, answers: Record<string, unknown>) {
  const cut = { ...answers };
  for (const f of form.fields) {
    const v = Object.hasOwn(answers, f.id) ? answers[f.id] : undefined;
    const most = "max_length" in f ? f.max_length : 10_000;
    if (typeof v === "string" && v.length > most) cut[f.id] = v.slice(0, most + 1);
    if (!v || typeof v !== "object") continue;
    const items = "options" in f ? f.options.length : "rows" in f ? f.rows.length : 0;
    if (Array.isArray(v)) {
      if (v.length > items) cut[f.id] = v.slice(0, items + 1);
    } else {
      const keys = Object.keys(v);
      if (keys.length > items)
        cut[f.id] = Object.fromEntries(
          keys.slice(0, items + 1).map((k) => [k, (v as Record<string, unknown>)[k]]),
        );
    }
  }
  return cut;
}

/** Validates a submit along its path; the payload, and the path it took. */
export function checkResponse(
  form: RespondForm,
  fields: unknown,
  hidden?: unknown,
): Result<{ payload: Payload; path: Path }> {
  const answers =
    fields && typeof fields === "object" && !Array.isArray(fields)
      ? (fields as Record<string, unknown>)
      : {};
  const path = walk(form, walkedAnswers(form, answers), keptHidden(form.hidden, hidden));
  const result = validateAnswers(form, fields, hidden, path.shown);
  return result.ok ? ok({ payload: result.value.payload, path }) : result;
}

/** The path of a stored payload (its `_hidden` as the hidden values): the same as at submit. */
export const storedPath = (form: LogicForm, payload: Record<string, unknown>): Path =>
  walk(form, payload, (payload._hidden as Record<string, unknown> | undefined) ?? {});

/** Whether a form chooses among endings (`endings`, or a quiz's pass and fail). */
export const hasEndings = (form: LogicForm): boolean =>
  (form.endings?.length ?? 0) > 0 ||
  (form.type === "quiz" && !!(form.quiz?.pass_ending || form.quiz?.fail_ending));

/** What a response records beside its payload: the ending and the variables, where the form has them. */
export function recorded(form: LogicForm, path: Path) {
  return {
    ending: hasEndings(form) ? path.ending : null,
    variables: (form.variables?.length ?? 0) > 0 ? JSON.stringify(path.variables) : null,
  };
}
