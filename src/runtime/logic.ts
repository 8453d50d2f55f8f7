// The logic of a form that has some (SPEC §24): groups, page conditions, jumps and variables,
// walked by the same core as the server's (core/logic/walk.ts). A chunk of its own, fetched only
// by the pages whose definition carries `logic`: a form without logic loads none of it.
import type { LogicForm } from "../core/logic/compiled.ts";
import { type Path, walk } from "../core/logic/walk.ts";
import type { Definition } from "./definition.ts";
import { params } from "./frame.ts";

const forms = new WeakMap<Definition, LogicForm>();

/** The respondent's path for these answers: the fields shown and the variables' values. */
export function pathOf(def: Definition, answers: Record<string, unknown>): Path {
  let form = forms.get(def);
  if (!form) {
    form = { type: def.type, fields: def.fields, ...def.logic };
    forms.set(def, form);
  }
  const hidden = Object.fromEntries(def.hidden.map((n) => [n, params.get(n)]));
  return walk(form, answers, hidden);
}
