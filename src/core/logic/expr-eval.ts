// Evaluates a parsed expression (expr.ts). Total: whatever the answers hold (the page evaluates
// before validation), it returns a value and never throws. Unanswered is null; null counts as 0
// in arithmetic and as "" in text; a division by zero, an overflow or text joined past
// MAX_JOINED characters gives null.
import { deepEqual } from "../show-if.ts";
import type { Node } from "./expr.ts";

export type Value = number | string | boolean | null | readonly unknown[] | object;

/** Reads an answer, a variable or a hidden value by name (null when there is none). */
export type Read = (name: string) => Value;

/** 15 significant digits: 0.1 + 0.2 is 0.3, on the page and on the server alike. */
export const fixNumber = (n: number): number | null =>
  Number.isFinite(n) ? Number(n.toPrecision(15)) : null;

const num = (v: Value): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);

/** A value as text: a number or a true/false as written; no value (or a list) is "". */
export const text = (v: Value): string => (v === null || typeof v === "object" ? "" : String(v));

/** false, null, 0, "" and an empty list are false; everything else is true. */
export const truthy = (v: Value): boolean => (Array.isArray(v) ? v.length > 0 : !!v);

function compare(op: string, a: Value, b: Value): boolean {
  if (op === "=") return deepEqual(a, b);
  if (op === "!=") return !deepEqual(a, b);
  // two numbers or two texts (ISO dates sort as text); anything else compares false
  if (typeof a !== typeof b || (typeof a !== "number" && typeof a !== "string")) return false;
  const x = a as number | string;
  const y = b as number | string;
  return op === "<" ? x < y : op === "<=" ? x <= y : op === ">" ? x > y : x >= y;
}

/**
 * Longest text a `+` joins (longer is no value): a variable may repeat another 333 times, so
 * four would otherwise outgrow any string the engine can hold (a throw) or the memory to store it.
 */
export const MAX_JOINED = 1e4;

function arithmetic(op: string, a: Value, b: Value): Value {
  if (op === "+" && (typeof a === "string" || typeof b === "string")) {
    // joined without copying (each side is at most MAX_JOINED or one answer), then measured
    const s = text(a) + text(b);
    return s.length > MAX_JOINED ? null : s;
  }
  const x = num(a);
  const y = num(b);
  // a division by zero is NaN here, and fixNumber makes any NaN or infinity no value
  return fixNumber(
    op === "+"
      ? x + y
      : op === "-"
        ? x - y
        : op === "*"
          ? x * y
          : y === 0
            ? Number.NaN
            : op === "/"
              ? x / y
              : x % y,
  );
}

/** The numbers among values (the schema lets only numbers in; anything else is left out). */
const numbers = (values: Value[]) =>
  values.filter((v): v is number => typeof v === "number" && Number.isFinite(v));

function call(fn: string, args: Node[], read: Read): Value {
  if (fn === "if")
    return truthy(evaluate(args[0], read)) ? evaluate(args[1], read) : evaluate(args[2], read);
  const values = args.map((a) => evaluate(a, read));
  const first = values[0] ?? null;
  switch (fn) {
    case "sum":
      return fixNumber(numbers(values).reduce((s, n) => s + n, 0));
    case "min":
    case "max": {
      const ns = numbers(values);
      return ns.length ? Math[fn](...ns) : null;
    }
    case "round": {
      // (digits past what a number holds make no value: fixNumber says null, never throws)
      const f = 10 ** num(values[1] ?? 0);
      // away from zero at .5, on every engine (Math.round rounds -2.5 to -2)
      const n = num(first) * f;
      return fixNumber((Math.sign(n) * Math.round(Math.abs(n) + 1e-9)) / f);
    }
    case "count":
      // a list's items, a matrix's rows answered
      return first && typeof first === "object" ? Object.keys(first).length : 0;
    case "len":
      return Array.isArray(first) ? first.length : text(first).length;
    default:
      return null;
  }
}

/**
 * The value of an expression for these answers and variables. A call short of its values (the
 * schema refuses it) reads the missing ones as no value: evaluation never throws.
 */
export function evaluate(node: Node | undefined, read: Read): Value {
  if (!node) return null;
  switch (node.k) {
    case "ref":
      return read(node.name);
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
      return "+-*/%".includes(node.op) ? arithmetic(node.op, a, b) : compare(node.op, a, b);
    }
    case "call":
      return call(node.fn, node.args, read);
    default:
      return node.v;
  }
}
