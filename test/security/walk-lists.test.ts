// Ninth review (docs/security-review.md): a submit's walk (src/core/logic/respond.ts) runs before
// validation and read a list or a map as sent. The eighth review cut texts one past their field's
// max_length, but not lists: a form (any account's) whose later question shows on 6,000
// `includes` rules of a checkbox, and one anonymous submit of that checkbox as a list of 30,000
// zeros (60 KB), held the event loop 8.7 s (300,000 zeros: 73 s) before validation refused the
// list. Now a walk reads a list or a map one item past its field's options or rows (a longer one
// is refused by validation anyway), and the weight counts a rule that looks through a list by
// the most options a field has.
import { describe, expect, it } from "vitest";
import { runCase } from "../../src/core/logic/cases.ts";
import { checkResponse } from "../../src/core/logic/respond.ts";
import { logicWeight, MAX_WALK_STEPS } from "../../src/core/logic/weight.ts";
import type { Form } from "../../src/core/schema.ts";
import { validateForm } from "../../src/core/validate-form.ts";

/** A group of `n` copies of a rule, in groups of 1,000 (a group's most). */
const many = (n: number, rule: object) => ({
  any: Array.from({ length: Math.ceil(n / 1000) }, (_, k) => ({
    any: Array.from({ length: Math.min(1000, n - k * 1000) }, () => rule),
  })),
});

const valid = (definition: object): Form => {
  const result = validateForm(definition);
  if (!result.ok) throw new Error(JSON.stringify(result.failure));
  return result.value;
};

/** `value` behind a proxy that counts the items (or entries) read or listed from it. */
function counted<T extends object>(value: T) {
  const reads = { n: 0 };
  const proxy = new Proxy(value, {
    get(target, key, receiver) {
      if (typeof key === "string" && Object.hasOwn(target, key)) reads.n++;
      return Reflect.get(target, key, receiver);
    },
    getOwnPropertyDescriptor(target, key) {
      reads.n++;
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
  });
  return { proxy, reads };
}

const form = (op: string) =>
  valid({
    title: "Lists",
    slug: "lists",
    fields: [
      { id: "c", type: "checkbox", options: ["a", "b"] },
      { id: "m", type: "text" },
      {
        id: "u",
        type: "text",
        show_if: many(
          6000,
          op === "unanswered" ? { field: "m", op } : { field: "c", op, value: "a" },
        ),
      },
    ],
  });

describe("a walk reads no more of a list than its field takes", () => {
  it("reads a long checkbox list once, not once per rule, in a submit", () => {
    const { proxy, reads } = counted(Array(1000).fill(0));
    const result = checkResponse(form("includes") as never, { c: proxy });
    expect(result.ok).toBe(false);
    // the list's first items (validation stops at the first that is not text), not 6,000 × 1,000
    expect(reads.n).toBeLessThanOrEqual(20);
  });

  it("lists a map sent for a text field once, not once per rule", () => {
    const entries = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`k${i}`, 1]));
    const { proxy, reads } = counted(entries);
    const result = checkResponse(form("unanswered") as never, { m: proxy });
    expect(result.ok).toBe(false);
    // its keys listed once to cut it (and once by validation), not 6,000 times
    expect(reads.n).toBeLessThanOrEqual(3 * 1000);
  });

  it("reads a logic test's lists the same way", () => {
    const { proxy, reads } = counted(Array(1000).fill("b"));
    runCase(
      form("contains") as never,
      { name: "long", answers: { c: proxy }, expect: { hidden_fields: ["u"] } } as never,
    );
    expect(reads.n).toBeLessThanOrEqual(20);
  });

  it("weighs a rule on a list by the most options a field has", () => {
    const options = Array.from({ length: 1000 }, (_, i) => `o${i}`);
    const definition = (rules: number) => ({
      title: "Options",
      slug: "options",
      fields: [
        { id: "c", type: "checkbox", options },
        {
          id: "u",
          type: "text",
          show_if: many(rules, { field: "c", op: "includes", value: "o1" }),
        },
      ],
    });
    // each rule looks through up to 1,001 items (about 40 ns each)
    expect(logicWeight(valid(definition(100)))).toBeGreaterThanOrEqual(100 * 100);
    const heavy = validateForm(definition(3000));
    expect(heavy.ok).toBe(false);
    expect(JSON.stringify(heavy)).toContain(`at most ${MAX_WALK_STEPS}`);
  });
});
