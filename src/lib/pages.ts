import type { LogicForm } from "../core/logic/compiled.ts";
import { walk } from "../core/logic/walk.ts";
import { pageIndexes } from "../core/page-indexes.ts";

// The page each field sits on lives in the core: the piping rules need it too.
export { pageIndexes };

/**
 * What the page shows before its script runs, so that the script finds it already so and
 * nothing moves (layout shift): the first page that holds a field visible with no answers given,
 * and that field set. The script's own render (form-element.ts) computes the same from the
 * same core functions; answers restored from an earlier visit may then move it on.
 */
export function firstView(form: LogicForm) {
  const { type, fields } = form;
  const pages = pageIndexes(type, fields);
  const path = walk(form, {});
  const visible = new Set(path.shown.map((f) => f.id));
  const shown = [...new Set(fields.flatMap((f, i) => (visible.has(f.id) ? [pages[i]!] : [])))];
  shown.sort((a, b) => a - b);
  const page = shown[0] ?? 0;
  return {
    pages,
    /** Whether the field at this index is on the first page and visible. */
    shows: (index: number) => pages[index] === page && visible.has(fields[index]!.id),
    /** The number of pages that hold a visible field (the step line's total). */
    total: shown.length,
    page,
    /** The variables' values before any answer (SPEC §24). */
    variables: path.variables,
  };
}
