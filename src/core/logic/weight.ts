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

const weights = new WeakMap<object, number>();

/** The steps one walk of the form takes: its fields, the conditions' leaves, the expressions' nodes. */
export function logicWeight(form: LogicForm): number {
  const known = weights.get(form);
  if (known !== undefined) return known;
  const expressions = Object.values(compile(form).variables).reduce((n, v) => n + nodes(v), 0);
  const weight = form.fields.length + leaves([form.fields, form.steps, form.endings]) + expressions;
  weights.set(form, weight);
  return weight;
}

/**
 * Walks one turn of the event loop may run, in steps (about 50 ms of one core): a server lets the
 * loop go (and waits for a turn of its own) before walks that would pass it. A form of a few
 * hundred steps never waits; the heaviest (a walk of 160,000 steps) takes a turn per walk.
 */
export const TURN_STEPS = 100_000;
