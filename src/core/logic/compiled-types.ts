// A form's logic made ready to walk (compiled.ts makes it; walk-path.ts reads it): plain JSON,
// so the server can hand it to the page as it is, and the page never parses an expression.
import type { Condition } from "./condition.ts";
import type { Node } from "./expr.ts";

/** Where a jump lands: the start of a later page, or an ending (the rest of the form skipped). */
export type Target = { page: number } | { ending: string };

export interface Compiled {
  /** The page of each field. */
  pages: number[];
  /** The condition on a page (its steps' `show_if`, all of them), by page. */
  pageIf: Record<number, Condition>;
  /** Per field: the jump it makes when shown, and per option value (in order) when chosen. */
  jumps: { field: Target | null; options: [string, Target][] | null }[];
  /** Each variable's parsed expression (null: it does not parse), by id in declared order. */
  variables: Record<string, Node | null>;
  /** The endings tried in order after the last page; `default` when none holds. */
  endings: { id: string; show_if?: Condition | undefined }[];
}
