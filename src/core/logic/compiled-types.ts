// A form's logic made ready to walk (compiled.ts makes it; walk-path.ts reads it): plain JSON,
// so the server can hand it to the page as it is, and the page never parses an expression.
import type { Condition } from "./condition.ts";
import type { Node } from "./expr.ts";

/** Where a jump lands: the start of a later page, or an ending (the rest of the form skipped). */
export type Target = { page: number } | { ending: string };

export interface Compiled {
  /** The page of each field. */
  pages: number[];
  /** The conditions on a page (its step's `show_if`), by page. */
  pageIf: Record<number, Condition[]>;
  /** Per field: the jump it makes when shown, and per option value (in order) when chosen. */
  jumps: { field: Target | null; options: [string, Target][] | null }[];
  /** Variables in declared order, each with its parsed expression (null: it does not parse). */
  variables: { id: string; node: Node | null }[];
  /** The endings tried in order after the last page; `default` when none holds. */
  endings: { id: string; show_if?: Condition | undefined }[];
}
