// What one walk of a form costs (walk.ts), in steps: its fields, its conditions' leaves and its
// expressions' nodes. The server bounds the walks one request makes by it (logic tests, plans).
// And what the page's logic (uses-logic.ts pageLogic) may carry: every anonymous view writes it.
import { compile, type LogicForm, pagesNamed, stepPages } from "./compiled.ts";
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

const weights = new WeakMap<object, number>();

/**
 * Steps a `contains` rule costs: it lower-cases the text it reads, at most the longest a field
 * takes (10,000 characters by default: about 30 steps; the server's walk reads no more).
 */
const containsCost = (form: LogicForm) =>
  Math.ceil(
    Math.max(10_000, ...form.fields.map((f) => ("max_length" in f ? f.max_length : 0))) / 300,
  );

/**
 * Steps a rule that looks through a list costs (`includes`, `excludes`, `contains`): a walk reads
 * a list one item past the most options or rows a field has (about 40 ns an item).
 */
const listCost = (form: LogicForm) =>
  Math.ceil(
    Math.max(
      0,
      ...form.fields.map((f) =>
        "options" in f ? f.options.length : "rows" in f ? f.rows.length : 0,
      ),
    ) / 10,
  ) + 1;

type Costs = { contains: number; list: number };

/** The leaves of a condition as walk checks them, those that read a text or a list at their cost. */
function cost(value: unknown, costs: Costs): number {
  if (!value || typeof value !== "object") return 0;
  const op = "op" in value ? (value as { op: unknown }).op : undefined;
  let n =
    op === "contains"
      ? Math.max(costs.contains, costs.list)
      : op === "includes" || op === "excludes"
        ? costs.list
        : op === undefined
          ? 0
          : 1;
  for (const v of Object.values(value)) n += cost(v, costs);
  return n;
}

/**
 * The steps one walk of the form takes: its fields, the conditions' leaves (a step's on each page
 * it names, as walk checks them), the expressions' nodes.
 */
export function logicWeight(form: LogicForm): number {
  const known = weights.get(form);
  if (known !== undefined) return known;
  const c = compile(form);
  const expressions = Object.values(c.variables).reduce((n, v) => n + nodes(v), 0);
  const costs = { contains: containsCost(form), list: listCost(form) };
  const steps = new Map((form.steps ?? []).map((s) => [s.show_if, cost(s.show_if, costs)]));
  const pages = Object.values(c.pageIf).reduce(
    (n, p) => n + (p.all ?? [p]).reduce((m, x) => m + (steps.get(x) ?? cost(x, costs)), 0),
    0,
  );
  const weight = form.fields.length + cost([form.fields, c.endings], costs) + pages + expressions;
  weights.set(form, weight);
  return weight;
}

/**
 * The heaviest walk a form may ask for, in steps (about 0.1 s of one core): a step's condition on
 * hundreds of pages or `contains` rules on long texts may weigh far more (eighth review: 0.2-6 s
 * a walk); variables at MAX_EXPRESSION_NODES weigh 30,000.
 */
export const MAX_WALK_STEPS = 250_000;

/**
 * Walks one turn of the event loop may run, in steps (about 50 ms of one core): a server lets the
 * loop go (and waits for a turn of its own) before walks that would pass it. A form of a few
 * hundred steps never waits; the heaviest (a walk of 250,000 steps) takes a turn per walk.
 */
export const TURN_STEPS = 100_000;

/**
 * Nodes the variables of one form compile to (names, values, operators, calls). The page carries
 * them as JSON, about 35 characters a node: 370 variables of `a*a*…*a` (a 250 KB form) were 246,000
 * nodes, an 8.4 MB page that held the event loop 0.7-1.7 s a view (tenth review). 30,000 is ~1 MB.
 */
export const MAX_EXPRESSION_NODES = 30_000;

/**
 * Characters of the steps' conditions as the page carries them: a step's `show_if` once on each
 * page it names (100 rules of 2,000 characters on 250 pages, a 220 KB form, were 51 MB of JSON).
 */
export const MAX_PAGE_CONDITIONS = 400_000;

/** JSON's length as the page writes it (`<` as `\u003c`). */
function pageChars(value: unknown): number {
  const json = JSON.stringify(value);
  return json.length + 5 * (json.split("<").length - 1);
}

/**
 * Why the page's logic of a form would be too large (past MAX_EXPRESSION_NODES or
 * MAX_PAGE_CONDITIONS), at the variable or step that passes the bound; null when it is not.
 */
export function pageLogicProblem(
  form: LogicForm,
): { path: (string | number)[]; message: string } | null {
  const c = compile(form);
  let total = 0;
  for (const [i, v] of (form.variables ?? []).entries()) {
    total += nodes(c.variables[v.id]);
    if (total > MAX_EXPRESSION_NODES)
      return {
        path: ["variables", i, "value"],
        message: `the variables up to this one compile to ${total} expression nodes (each name, value, operator and call); a form's variables have at most ${MAX_EXPRESSION_NODES}, since every view of its page carries them`,
      };
  }
  const byId = stepPages(form, c.pages);
  let chars = 0;
  for (const [i, step] of (form.steps ?? []).entries()) {
    const pages = pagesNamed(byId, step.id).length;
    chars += pages * pageChars(step.show_if);
    if (chars > MAX_PAGE_CONDITIONS)
      return {
        path: ["steps", i, "show_if"],
        message: `the steps' conditions up to this one are ${chars} characters on the page, each counted on every page its step names (this one: ${pages}); at most ${MAX_PAGE_CONDITIONS} (give each page a step of its own, or a shorter condition)`,
      };
  }
  return null;
}
