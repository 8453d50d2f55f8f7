// Eighth review (docs/security-review.md): the weight that bounds a form's walks (logic tests,
// plans, a submit's turn) counted each condition once, but a walk pays more: a step's condition
// on each page it names (a condition of 5,000 rules on 250 pages: 170 ms a walk at a weight of
// 5,500, so 18 walks to a turn of the event loop), a quiz's `score` scored again for each rule
// that reads it (5,000 rules: 640 ms a walk), and `contains` lower-casing what it reads for each
// rule, before validation had measured it (6,000 rules and one anonymous 900 KB answer: 6 s).
// Now the weight counts what a walk does, a form heavier than MAX_WALK_STEPS is refused, the score
// is kept for the walk, and a walk reads a text cut one past what its field takes.
import { describe, expect, it } from "vitest";
import { runCase } from "../../src/core/logic/cases.ts";
import { walkedAnswers } from "../../src/core/logic/respond.ts";
import { walk } from "../../src/core/logic/walk.ts";
import { logicWeight, MAX_WALK_STEPS } from "../../src/core/logic/weight.ts";
import type { Form } from "../../src/core/schema.ts";
import { validateForm } from "../../src/core/validate-form.ts";

/** A group of `n` copies of a rule, in groups of 1,000 (a group's most). */
const many = (n: number, rule: object) => ({
  any: Array.from({ length: Math.ceil(n / 1000) }, () => ({
    any: Array.from({ length: Math.min(1000, n) }, () => rule),
  })),
});

const valid = (definition: object): Form => {
  const result = validateForm(definition);
  if (!result.ok) throw new Error(JSON.stringify(result.failure));
  return result.value;
};

describe("what one walk of a form may cost", () => {
  it("counts a step's condition on each page it names, and refuses past the bound", () => {
    const definition = (rules: number) => ({
      title: "Steps",
      slug: "steps",
      steps: [{ id: 2, show_if: many(rules, { field: "a", op: "unanswered" }) }],
      // steps 1 and 2 by turns: step 2 names 250 pages
      fields: Array.from({ length: 500 }, (_, i) => ({
        id: i === 0 ? "a" : `f${i}`,
        type: "text",
        step: i % 2 === 0 ? 1 : 2,
      })),
    });
    expect(logicWeight(valid(definition(10)))).toBeGreaterThanOrEqual(250 * 10);
    const heavy = validateForm(definition(5000));
    expect(heavy.ok).toBe(false);
    expect(JSON.stringify(heavy)).toContain(`at most ${MAX_WALK_STEPS}`);
  });

  it("refuses contains rules on a text longer than the bound allows", () => {
    const result = validateForm({
      title: "Long",
      slug: "long",
      fields: [
        { id: "t", type: "textarea", max_length: 900_000 },
        { id: "u", type: "text", show_if: many(6000, { field: "t", op: "contains", value: "q" }) },
      ],
    });
    expect(result.ok).toBe(false);
  });

  it("scores a quiz once a walk, however many rules read the score", () => {
    let reads = 0;
    const form = valid({
      title: "Quiz",
      slug: "quiz",
      type: "quiz",
      endings: [
        { id: "top", title: "Top", show_if: many(3000, { field: "score", op: "gt", value: 99 }) },
      ],
      fields: Array.from({ length: 5 }, (_, i) => ({
        id: `q${i}`,
        type: "radio",
        options: ["a", "b"],
        answer: "a",
      })),
    });
    const counted = {
      ...form,
      fields: form.fields.map((f) => ({
        ...f,
        get answer() {
          reads++;
          return "a";
        },
      })),
    } as Form;
    expect(walk(counted, { q0: "a", q1: "b" }).ending).toBe("default");
    // the five questions read for one score (and the form compiled), not 3,000 times
    expect(reads).toBeLessThanOrEqual(50);
  });

  it("walks a text cut one past what its field takes, in a submit and a logic test", () => {
    const form = valid({
      title: "Cut",
      slug: "cut",
      hidden: ["src"],
      fields: [
        { id: "t", type: "text", max_length: 50 },
        { id: "n", type: "text" },
        { id: "u", type: "text", show_if: { field: "t", op: "contains", value: "z" } },
      ],
    });
    const cut = walkedAnswers(form, { t: "a".repeat(900_000), n: "b".repeat(20_000), x: "c" });
    expect([(cut.t as string).length, (cut.n as string).length, cut.x]).toEqual([51, 10_001, "c"]);
    // a logic test reads the case's answers and hidden values as a submit does
    const run = runCase(
      form as never,
      {
        name: "long",
        answers: { t: `${"a".repeat(60)}z` },
        hidden: { src: "s".repeat(900_000) },
        expect: { hidden_fields: ["u"] },
      } as never,
    );
    expect(run.failures).toEqual([]);
  });
});
