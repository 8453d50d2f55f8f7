// Whether a form needs the page's logic chunk (SPEC §24): groups and the newer operators, page
// conditions, jumps, endings chosen by condition or variables. A form whose only logic is plain
// `show_if` rules on fields is judged by the page's entry alone (core/show-if.ts).
import type { Field } from "../field-schema.ts";
import type { LogicForm } from "./compiled.ts";
import { isPlainRule } from "./condition.ts";

const jumps = (f: Field) =>
  f.goto !== undefined ||
  ("options" in f &&
    f.options.some((o) => typeof o !== "string" && "goto" in o && o.goto !== undefined));

export function usesLogic(form: LogicForm): boolean {
  return (
    (form.steps?.length ?? 0) > 0 ||
    (form.variables?.length ?? 0) > 0 ||
    (form.endings?.length ?? 0) > 0 ||
    form.fields.some((f) => jumps(f) || (f.show_if !== undefined && !isPlainRule(f.show_if)))
  );
}

/** What the page's script needs of the logic, or nothing for a form without it. */
export function pageLogic(form: LogicForm) {
  if (!usesLogic(form)) return undefined;
  return {
    steps: form.steps ?? [],
    variables: (form.variables ?? []).map(({ id, value }) => ({ id, value })),
    // ids only: the jumps name them; which ending a submit reached, the server says
    endings: (form.endings ?? []).map(({ id }) => ({ id })),
  };
}
