// The heaviest logic a valid form may carry, from the bounds themselves (src/core/logic/weight.ts):
// variables of 333 terms (a variable's longest: 665 nodes) up to MAX_EXPRESSION_NODES, an ending
// of `contains` rules on a long text (server-side only: the page has no endings' conditions) up to
// about MAX_WALK_STEPS, and a step's condition on every other page up to MAX_PAGE_CONDITIONS.
import {
  MAX_EXPRESSION_NODES,
  MAX_PAGE_CONDITIONS,
  MAX_WALK_STEPS,
} from "../../src/core/logic/weight.ts";

const TERMS = 333;
/** `a+a+…+a` (333 terms, 1,000 characters less one): 665 nodes, 666 when `a` is 2. */
export const SUM = Array(TERMS).fill("a").join("+");
/** `a*a*…*a`: as many nodes as SUM. */
export const PRODUCT = Array(TERMS).fill("a").join("*");
/** Variables of 333 terms a form may have. */
export const HEAVY_VARIABLES = Math.floor(MAX_EXPRESSION_NODES / (2 * TERMS - 1));

export const heavyVariables = (value = SUM) =>
  Array.from({ length: HEAVY_VARIABLES }, (_, i) => ({ id: `v${i}`, value }));

/** A text field of 100,000 characters: each `contains` rule on it costs a walk 334 steps. */
const LONG = 100_000;
const CONTAINS_STEPS = Math.ceil(LONG / 300);

/**
 * A form of one number field `a` and a text `t`, the most variables of 333 terms, and an ending
 * whose `contains` rules on `t` take the walk close to MAX_WALK_STEPS.
 */
export function heavyForm(slug: string, value = SUM) {
  const room = MAX_WALK_STEPS - MAX_EXPRESSION_NODES - 1_000;
  const rules = Math.floor(room / CONTAINS_STEPS);
  const groups = Array.from({ length: Math.ceil(rules / 1000) }, (_, g) => ({
    any: Array.from({ length: Math.min(1000, rules - g * 1000) }, () => ({
      field: "t",
      op: "contains",
      value: "q",
    })),
  }));
  return {
    title: "Heavy",
    slug,
    humanness: false,
    fields: [
      { id: "a", type: "number", label: "A" },
      { id: "t", type: "textarea", label: "T", max_length: LONG },
    ],
    variables: heavyVariables(value),
    endings: [{ id: "found", title: "Found", show_if: { any: groups } }],
  };
}

/**
 * The heaviest page logic a valid form may carry: the most variables of 333 factors and a step's
 * condition on 250 pages (every other field's) up to MAX_PAGE_CONDITIONS.
 */
export function heaviestPageForm(slug: string) {
  const pages = 250;
  // a rule's JSON is its value's length and 34 characters; the page wraps each in {"all":[…]}
  const value = "x".repeat(Math.floor(MAX_PAGE_CONDITIONS / pages) - 40);
  return {
    title: "Heaviest page",
    slug,
    humanness: false,
    steps: [{ id: 2, show_if: { field: "t", op: "neq", value } }],
    fields: Array.from({ length: 2 * pages }, (_, i) => ({
      id: i === 0 ? "t" : i === 2 ? "a" : `f${i}`,
      type: i === 2 ? "number" : "text",
      label: `F${i}`,
      step: i % 2 === 0 ? 1 : 2,
    })),
    variables: heavyVariables(PRODUCT),
  };
}
