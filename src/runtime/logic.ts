// The logic of a form that has some (SPEC §24): groups, page conditions, jumps and variables,
// walked by the same core as the server's (core/logic/walk-path.ts) over the form as the server
// compiled it (its definition's `logic`: pages, conditions, jumps and parsed expressions), so
// the page carries no parser. A chunk of its own, fetched only by the pages whose definition has
// `logic`: a form without logic loads none of it.
import { type Walked, walkCompiled } from "../core/logic/walk-path.ts";
import type { Definition } from "./definition.ts";

/** The respondent's path for these answers: the fields shown and the variables' values. */
export const pathOf = (
  def: Definition,
  answers: Record<string, unknown>,
  hidden: Record<string, string>,
): Walked => walkCompiled(def.fields, def.logic!, answers, hidden);
