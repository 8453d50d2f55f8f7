// Whether a form's page needs the logic chunk (SPEC §24): groups and the newer operators, page
// conditions, jumps, endings chosen by condition or variables. A form whose only logic is plain
// `show_if` rules on fields is judged by the page's entry alone (core/show-if.ts), and a quiz's
// pass and fail endings by the server alone (it names the ending the page shows).
import { compile, type LogicForm } from "./compiled.ts";
import type { Compiled } from "./compiled-types.ts";
import { needsPath } from "./needs-path.ts";

export const usesLogic = (form: LogicForm): boolean => needsPath({ ...form, quiz: undefined });

/**
 * What the page's script needs of the logic: the form compiled (pages, conditions, jumps, parsed
 * expressions), without the endings' conditions (the server names the ending a submit reached);
 * nothing for a form without logic.
 */
export function pageLogic(form: LogicForm): Compiled | undefined {
  if (!usesLogic(form)) return undefined;
  return { ...compile(form), endings: [] };
}
