import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseExpr } from "./expr.ts";
import { evaluate, type Value } from "./expr-eval.ts";
import { type TypeProblem, typeOfExpr, type ValueType } from "./expr-types.ts";

const values: Record<string, Value> = {
  seats: 12,
  price: 9.5,
  plan: "Pro",
  tools: ["git", "ci"],
  nothing: null,
  "hidden.ref": "mail",
};
const run = (text: string, read: Record<string, Value> = values): Value => {
  const parsed = parseExpr(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return evaluate(parsed.node, (name) => (Object.hasOwn(read, name) ? read[name]! : null));
};
const types: Record<string, ValueType> = {
  seats: "number",
  price: "number",
  plan: "text",
  tools: "list",
  ok: "boolean",
  grid: "matrix",
};
const typeOf = (text: string) => {
  const parsed = parseExpr(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const problems: TypeProblem[] = [];
  const type = typeOfExpr(
    parsed.node,
    (n) => types[n] ?? { problem: `reads "${n}", unknown` },
    problems,
  );
  return type ?? problems[0]!.message;
};

describe("the expression language", () => {
  it("computes arithmetic with the usual precedence and parentheses", () => {
    expect(run("seats * price")).toBe(114);
    expect(run("1 + 2 * 3")).toBe(7);
    expect(run("(1 + 2) * 3")).toBe(9);
    expect(run("-seats + 2")).toBe(-10);
    expect(run("17 % 5")).toBe(2);
    expect(run("0.1 + 0.2")).toBe(0.3);
    expect(run("10 / 4")).toBe(2.5);
  });

  it("reads unanswered as 0 in sums and as empty in text; a division by zero gives no value", () => {
    expect(run("nothing + 3")).toBe(3);
    expect(run("seats / 0")).toBeNull();
    expect(run('"plan: " + nothing')).toBe("plan: ");
    expect(run('plan + " x" + seats')).toBe("Pro x12");
  });

  it("compares, joins with and/or/not, and chooses with if()", () => {
    expect(run("seats > 10 and plan = 'Pro'")).toBe(true);
    expect(run("seats >= 13 or not (plan != 'Pro')")).toBe(true);
    expect(run("not seats > 20")).toBe(true);
    expect(run("if(seats > 10, 'team', 'solo')")).toBe("team");
    expect(run("nothing = nothing")).toBe(true);
    expect(run("nothing < 3")).toBe(false);
    expect(run("seats == 12")).toBe(true);
  });

  it("has sum, min, max, round, count and len", () => {
    expect(run("sum(seats, price, 0.5)")).toBe(22);
    expect(run("min(seats, price)")).toBe(9.5);
    expect(run("max(seats, nothing, 3)")).toBe(12);
    expect(run("max(nothing)")).toBeNull();
    expect(run("round(2.5)")).toBe(3);
    expect(run("round(-2.5)")).toBe(-3);
    expect(run("round(2.675, 2)")).toBe(2.68);
    expect(run("count(tools)")).toBe(2);
    expect(run("count(nothing)")).toBe(0);
    expect(run("len(plan)")).toBe(3);
    expect(run("len(hidden.ref)")).toBe(4);
  });

  it("names where a text cannot be read, by column", () => {
    const error = (text: string) => {
      const parsed = parseExpr(text);
      return parsed.ok ? null : `${parsed.error.at + 1}: ${parsed.error.message}`;
    };
    expect(error("seats *")).toBe("8: a value is missing at the end");
    expect(error("(seats + 1")).toBe('11: expected ")" before the end');
    expect(error("seats $ 2")).toBe('7: unexpected "$"');
    expect(error("'open")).toBe("1: this text has no closing quote");
    expect(error("1 < 2 < 3")).toBe("7: comparisons do not chain: join them with and");
    expect(error("(".repeat(60))).toMatch(/nested too deeply/);
    expect(error("x".repeat(1001))).toMatch(/at most 1000 characters/);
  });

  it("knows each expression's type and refuses what cannot mix", () => {
    expect(typeOf("seats * price")).toBe("number");
    expect(typeOf("plan + seats")).toBe("text");
    expect(typeOf("seats > 1 and plan = 'x'")).toBe("boolean");
    expect(typeOf("count(tools) + len(plan)")).toBe("number");
    expect(typeOf("plan * 2")).toBe('"*" needs numbers, not text');
    expect(typeOf("plan = 2")).toBe("cannot compare text with a number");
    expect(typeOf("plan < seats")).toBe(
      '"<" compares two numbers or two texts, not text and a number',
    );
    expect(typeOf("if(ok, 1, 'x')")).toBe("if() gives a number one way and text the other");
    expect(typeOf("count(plan)")).toBe("count() needs a list or a matrix, not text");
    expect(typeOf("round(1, 2, 3)")).toBe("round() takes 1 or 2 values");
    expect(typeOf("avg(seats)")).toMatch(/^unknown function "avg"/);
    expect(typeOf("total + 1")).toBe('reads "total", unknown');
  });

  it("fuzz: any text parses or fails with a column, and never throws; what parses evaluates", () => {
    const alphabet = fc.constantFrom(
      ..."seats price plan tools nothing and or not if sum min max round count len ( ) , + - * / % < > = ! ' \" 1 2.5 0 e".split(
        " ",
      ),
      " ",
    );
    const soup = fc.array(alphabet, { maxLength: 40 }).map((parts) => parts.join(" "));
    fc.assert(
      fc.property(fc.oneof(soup, fc.string({ maxLength: 80 })), (text) => {
        const parsed = parseExpr(text);
        if (!parsed.ok) {
          expect(parsed.error.at).toBeGreaterThanOrEqual(0);
          expect(parsed.error.at).toBeLessThanOrEqual(text.length);
          return;
        }
        const v = evaluate(parsed.node, (name) =>
          Object.hasOwn(values, name) ? values[name]! : null,
        );
        expect(v === null || ["number", "string", "boolean", "object"].includes(typeof v)).toBe(
          true,
        );
        if (typeof v === "number") expect(Number.isFinite(v)).toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it("evaluates a call short of its values (the schema refuses it) to no value, never a throw", () => {
    expect(run("if()")).toBeNull();
    expect(run("round()")).toBe(0);
    expect(run("sum()")).toBe(0);
    expect(run("max()")).toBeNull();
    expect(run("not(1)")).toBe(false);
  });

  it("never runs code: names like constructor or __proto__ read nothing", () => {
    expect(run("constructor")).toBeNull();
    expect(run("__proto__ + 1")).toBe(1);
    expect(parseExpr("this.constructor('x')()").ok).toBe(false);
  });
});
