// What one walk of a form costs (walk.ts), in steps: its fields, its conditions' leaves and its
// expressions' nodes. The server bounds the walks one request makes by it (logic tests, plans),
// since a form's variables may hold 256 KB of expressions (a walk of ~80 ms).
import { compile, type LogicForm } from "./compiled.ts";
import type { Node } from "./expr.ts";

const nodes = (n: Node | null | undefined): number =>
  !n
    ? 0
    : n.k === "op"
      ? 1 + nodes(n.a) + nodes(n.b)
      : n.k === "neg" || n.k === "not"
        ? 1 + nodes(n.a)
        : n.k === "call"
          ? n.args.reduce((sum, a) => sum + nodes(a), 1)
          : 1;

/** The conditions' leaves (`{field, op}`) in a value, however they nest. */
function leaves(value: unknown): number {
  if (!value || typeof value !== "object") return 0;
  let n = "op" in value ? 1 : 0;
  for (const v of Object.values(value)) n += leaves(v);
  return n;
}

/** The steps one walk of the form takes: its fields, the conditions' leaves, the expressions' nodes. */
export function logicWeight(form: LogicForm): number {
  const expressions = Object.values(compile(form).variables).reduce((n, v) => n + nodes(v), 0);
  return form.fields.length + leaves([form.fields, form.steps, form.endings]) + expressions;
}
