// Evaluates a parsed expression (expr.ts). Total: whatever the answers hold (the page evaluates
// before validation), it returns a value and never throws. Unanswered is null; null counts as 0
// in arithmetic and as "" in text; a division by zero or an overflow gives null.
import { deepEqual } from "../show-if.ts";
import type { Node } from "./expr.ts";

export type Value = number | string | boolean | null | readonly unknown[] | object;

/** Reads an answer, a variable or a hidden value by name (null when there is none). */
export type Read = (name: string) => Value;

/** 15 significant digits: 0.1 + 0.2 is 0.3, on the page and on the server alike. */
export const fixNumber = (n: number): number | null =>
  Number.isFinite(n) ? Number(n.toPrecision(15)) : null;

const num = (v: Value): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

export function text(v: Value): string {
  if (v === null || v === undefined) return "";
  if (Array.isArray(v)) return v.map((x) => text(x as Value)).join(", ");
  if (typeof v === "object") return "";
  return String(v);
}

/** false, null, 0, "" and an empty list are false; everything else is true. */
export const truthy = (v: Value): boolean =>
  Array.isArray(v) ? v.length > 0 : v !== null && v !== false && v !== 0 && v !== "";

function compare(op: string, a: Value, b: Value): boolean {
  if (op === "=") return deepEqual(a, b);
  if (op === "!=") return !deepEqual(a, b);
  const same =
    (typeof a === "number" && typeof b === "number") ||
    (typeof a === "string" && typeof b === "string");
  if (!same) return false;
  const x = a as number | string;
  const y = b as number | string;
  if (op === "<") return x < y;
  if (op === "<=") return x <= y;
  if (op === ">") return x > y;
  return x >= y;
}

function arithmetic(op: string, a: Value, b: Value): Value {
  if (op === "+" && (typeof a === "string" || typeof b === "string")) return text(a) + text(b);
  const x = num(a);
  const y = num(b);
  if (op === "+") return fixNumber(x + y);
  if (op === "-") return fixNumber(x - y);
  if (op === "*") return fixNumber(x * y);
  if (y === 0) return null;
  return fixNumber(op === "/" ? x / y : x % y);
}

const numbers = (values: Value[]) =>
  values.flatMap((v) =>
    Array.isArray(v)
      ? v.filter((x): x is number => typeof x === "number" && Number.isFinite(x))
      : typeof v === "number" && Number.isFinite(v)
        ? [v]
        : [],
  );

function call(fn: string, args: Node[], read: Read): Value {
  if (fn === "if")
    return truthy(evaluate(args[0]!, read)) ? evaluate(args[1]!, read) : evaluate(args[2]!, read);
  const values = args.map((a) => evaluate(a, read));
  const first = values[0] ?? null;
  switch (fn) {
    case "not":
      return !truthy(first);
    case "sum":
      return fixNumber(numbers(values).reduce((s, n) => s + n, 0));
    case "min":
    case "max": {
      const ns = numbers(values);
      return ns.length === 0 ? null : fn === "min" ? Math.min(...ns) : Math.max(...ns);
    }
    case "round": {
      const digits = Math.max(0, Math.min(10, Math.trunc(num(values[1] ?? 0))));
      const f = 10 ** digits;
      // away from zero at .5, on every engine (Math.round rounds -2.5 to -2)
      const n = num(first) * f;
      return fixNumber((Math.sign(n) * Math.round(Math.abs(n) + 1e-9)) / f);
    }
    case "count":
      return Array.isArray(first)
        ? first.length
        : first && typeof first === "object"
          ? Object.keys(first).length
          : first === null || first === ""
            ? 0
            : 1;
    case "len":
      return Array.isArray(first) ? first.length : text(first).length;
    default:
      return null;
  }
}

/** The value of an expression for these answers and variables. */
export function evaluate(node: Node, read: Read): Value {
  switch (node.k) {
    case "num":
    case "str":
    case "bool":
      return node.v;
    case "ref":
      return read(node.name) ?? null;
    case "neg":
      return fixNumber(-num(evaluate(node.a, read)));
    case "not":
      return !truthy(evaluate(node.a, read));
    case "op": {
      if (node.op === "and")
        return truthy(evaluate(node.a, read)) && truthy(evaluate(node.b, read));
      if (node.op === "or") return truthy(evaluate(node.a, read)) || truthy(evaluate(node.b, read));
      const a = evaluate(node.a, read);
      const b = evaluate(node.b, read);
      if (/^[-+*/%]$/.test(node.op)) return arithmetic(node.op, a, b);
      return compare(node.op, a, b);
    }
    case "call":
      return call(node.fn, node.args, read);
  }
}
