// The static type of an expression (SPEC §24: "a type that cannot compare" is an author's error
// at file:line). Each answer, variable and hidden value has a type known from the form; an
// expression that mixes them wrongly is refused when the form is read, never silently 0.
import type { Node } from "./expr.ts";

export type ValueType = "number" | "text" | "boolean" | "list" | "matrix";

export interface TypeProblem {
  at: number;
  message: string;
}

/** The type of a name, or a sentence saying why it cannot be read here. */
export type TypeOfName = (name: string) => ValueType | { problem: string };

const NOUN: Record<ValueType, string> = {
  number: "a number",
  text: "text",
  boolean: "true/false",
  list: "a list",
  matrix: "a matrix",
};

const ARITY: Record<string, [number, number]> = {
  if: [3, 3],
  not: [1, 1],
  sum: [1, 100],
  min: [1, 100],
  max: [1, 100],
  round: [1, 2],
  count: [1, 1],
  len: [1, 1],
};

export const FUNCTIONS = Object.keys(ARITY);

/** The expression's type, or null after adding the first problem found to `problems`. */
export function typeOfExpr(
  node: Node,
  names: TypeOfName,
  problems: TypeProblem[],
): ValueType | null {
  const fail = (at: number, message: string) => {
    problems.push({ at, message });
    return null;
  };
  const need = (n: Node, want: ValueType[], what: string, at: number): ValueType | null => {
    const t = typeOfExpr(n, names, problems);
    if (t === null) return null;
    if (!want.includes(t))
      return fail(at, `${what} needs ${want.map((w) => NOUN[w]).join(" or ")}, not ${NOUN[t]}`);
    return t;
  };
  switch (node.k) {
    case "num":
      return "number";
    case "str":
      return "text";
    case "bool":
      return "boolean";
    case "ref": {
      const t = names(node.name);
      return typeof t === "string" ? t : fail(node.at, t.problem);
    }
    case "neg":
      return need(node.a, ["number"], '"-"', 0) && "number";
    case "not":
      return typeOfExpr(node.a, names, problems) && "boolean";
    case "op": {
      if (node.op === "and" || node.op === "or") {
        const a = typeOfExpr(node.a, names, problems);
        const b = a && typeOfExpr(node.b, names, problems);
        return b && "boolean";
      }
      const a = typeOfExpr(node.a, names, problems);
      const b = a && typeOfExpr(node.b, names, problems);
      if (!a || !b) return null;
      if (node.op === "+" && (a === "text" || b === "text")) {
        if ((a === "text" || a === "number") && (b === "text" || b === "number")) return "text";
        return fail(node.at, `"+" joins text and numbers, not ${NOUN[a]} and ${NOUN[b]}`);
      }
      if (/^[-+*/%]$/.test(node.op)) {
        if (a !== "number" || b !== "number")
          return fail(node.at, `"${node.op}" needs numbers, not ${NOUN[a === "number" ? b : a]}`);
        return "number";
      }
      if (node.op === "=" || node.op === "!=") {
        if (a !== b) return fail(node.at, `cannot compare ${NOUN[a]} with ${NOUN[b]}`);
        return "boolean";
      }
      if (a !== b || (a !== "number" && a !== "text"))
        return fail(
          node.at,
          `"${node.op}" compares two numbers or two texts, not ${NOUN[a]} and ${NOUN[b]}`,
        );
      return "boolean";
    }
    case "call": {
      const arity = ARITY[node.fn];
      if (!arity)
        return fail(
          node.at,
          `unknown function "${node.fn}" (the functions are ${FUNCTIONS.join(", ")})`,
        );
      const [lo, hi] = arity;
      if (node.args.length < lo || node.args.length > hi) {
        const n = lo === hi ? `${lo}` : hi > 10 ? `at least ${lo}` : `${lo} or ${hi}`;
        return fail(node.at, `${node.fn}() takes ${n} value${n === "1" ? "" : "s"}`);
      }
      const what = `${node.fn}()`;
      switch (node.fn) {
        case "if": {
          if (!typeOfExpr(node.args[0]!, names, problems)) return null;
          const a = typeOfExpr(node.args[1]!, names, problems);
          const b = a && typeOfExpr(node.args[2]!, names, problems);
          if (!a || !b) return null;
          if (a !== b)
            return fail(node.at, `if() gives ${NOUN[a]} one way and ${NOUN[b]} the other`);
          return a;
        }
        case "not":
          return typeOfExpr(node.args[0]!, names, problems) && "boolean";
        case "count":
          return need(node.args[0]!, ["list", "matrix"], what, node.at) && "number";
        case "len":
          return need(node.args[0]!, ["text", "list"], what, node.at) && "number";
        default:
          for (const a of node.args) if (!need(a, ["number"], what, node.at)) return null;
          return "number";
      }
    }
  }
}
