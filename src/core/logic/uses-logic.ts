// Whether a form's page needs the logic chunk (SPEC §24): groups and the newer operators, page
// conditions, jumps, endings chosen by condition or variables. A form whose only logic is plain
// `show_if` rules on fields is judged by the page's entry alone (core/show-if.ts), and a quiz's
// pass and fail endings by the server alone (it names the ending the page shows).
import type { LogicForm } from "./compiled.ts";
import { needsPath } from "./needs-path.ts";

export const usesLogic = (form: LogicForm): boolean => needsPath({ ...form, quiz: undefined });

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
