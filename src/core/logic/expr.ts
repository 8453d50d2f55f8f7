// The variables' expression language (SPEC §24), read by our own small parser: a tokenizer and
// a precedence-climbing parser into a tree of plain objects. It never builds code (no eval, no
// Function): the tree is walked by expr-eval.ts. Errors are values with the column they point at.
//
//   expr := or;  or := and ("or" and)*;  and := not ("and" not)*;  not := "not" not | cmp
//   cmp  := sum (("=" | "==" | "!=" | "<" | "<=" | ">" | ">=") sum)?
//   sum  := prod (("+" | "-") prod)*;  prod := unary (("*" | "/" | "%") unary)*
//   unary := "-" unary | atom;  atom := number | string | true | false | name | name "(" args ")" | "(" expr ")"
//   name := an answer or variable id, or hidden.<name>

export type Node =
  | { k: "num"; v: number }
  | { k: "str"; v: string }
  | { k: "bool"; v: boolean }
  | { k: "ref"; name: string; at: number }
  | { k: "neg" | "not"; a: Node }
  | { k: "op"; op: BinaryOp; a: Node; b: Node; at: number }
  | { k: "call"; fn: string; args: Node[]; at: number };

export type BinaryOp =
  | "or"
  | "and"
  | "="
  | "!="
  | "<"
  | "<="
  | ">"
  | ">="
  | "+"
  | "-"
  | "*"
  | "/"
  | "%";

export interface ExprError {
  /** 0-based offset in the expression. */
  at: number;
  message: string;
}

export type Parsed = { ok: true; node: Node } | { ok: false; error: ExprError };

/** Longer expressions are refused: a variable is a formula, not a program. */
export const MAX_EXPR = 1000;
/** Parentheses and operators nest at most this deep (the parser recurses). */
const MAX_DEPTH = 40;

interface Token {
  t: "num" | "str" | "name" | "sym" | "end";
  v: string;
  at: number;
}

const NAME = /[a-z_][a-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_-]*)?/y;
const NUMBER = /(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/y;
const SYMBOL = /==|!=|<=|>=|[-+*/%()<>=,]/y;

class Fail extends Error {
  at: number;
  constructor(at: number, message: string) {
    super(message);
    this.at = at;
  }
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      i++;
      continue;
    }
    if (c === '"' || c === "'") {
      const end = text.indexOf(c, i + 1);
      if (end < 0) throw new Fail(i, "this text has no closing quote");
      tokens.push({ t: "str", v: text.slice(i + 1, end), at: i });
      i = end + 1;
      continue;
    }
    let m: RegExpExecArray | null = null;
    for (const [t, re] of [
      ["num", NUMBER],
      ["name", NAME],
      ["sym", SYMBOL],
    ] as const) {
      re.lastIndex = i;
      m = re.exec(text);
      if (m) {
        tokens.push({ t, v: m[0], at: i });
        i += m[0].length;
        break;
      }
    }
    if (!m) throw new Fail(i, `unexpected ${JSON.stringify(c)}`);
  }
  tokens.push({ t: "end", v: "", at: text.length });
  return tokens;
}

const COMPARE = new Set(["=", "==", "!=", "<", "<=", ">", ">="]);

/** Parses an expression; never throws. */
export function parseExpr(text: string): Parsed {
  if (typeof text !== "string") return { ok: false, error: { at: 0, message: "must be text" } };
  if (text.length > MAX_EXPR)
    return {
      ok: false,
      error: { at: MAX_EXPR, message: `must be at most ${MAX_EXPR} characters` },
    };
  try {
    const tokens = tokenize(text);
    let p = 0;
    let depth = 0;
    const peek = () => tokens[p]!;
    const next = () => tokens[p++]!;
    const word = (v: string) => peek().t === "name" && peek().v === v;
    const sym = (v: string) => peek().t === "sym" && peek().v === v;
    const expect = (v: string) => {
      if (!sym(v)) throw new Fail(peek().at, `expected "${v}"${found()}`);
      p++;
    };
    const found = () => (peek().t === "end" ? " before the end" : `, found "${peek().v}"`);
    const nest = <T>(read: () => T): T => {
      if (++depth > MAX_DEPTH) throw new Fail(peek().at, "is nested too deeply");
      const node = read();
      depth--;
      return node;
    };
    const binary = (read: () => Node, ops: (t: Token) => string | null): Node => {
      let a = read();
      for (let op = ops(peek()); op; op = ops(peek())) {
        const at = next().at;
        a = { k: "op", op: op as BinaryOp, a, b: read(), at };
      }
      return a;
    };
    const or = (): Node =>
      nest(() => binary(and, (t) => (t.t === "name" && t.v === "or" ? "or" : null)));
    const and = (): Node => binary(not, (t) => (t.t === "name" && t.v === "and" ? "and" : null));
    const not = (): Node => {
      if (word("not") && tokens[p + 1]?.v !== "(") {
        next();
        return { k: "not", a: nest(not) };
      }
      return compare();
    };
    const compare = (): Node => {
      const a = sum();
      if (peek().t !== "sym" || !COMPARE.has(peek().v)) return a;
      const t = next();
      const op = (t.v === "==" ? "=" : t.v) as BinaryOp;
      const node: Node = { k: "op", op, a, b: sum(), at: t.at };
      if (peek().t === "sym" && COMPARE.has(peek().v))
        throw new Fail(peek().at, "comparisons do not chain: join them with and");
      return node;
    };
    const sum = (): Node => binary(prod, (t) => (t.t === "sym" && /^[-+]$/.test(t.v) ? t.v : null));
    const prod = (): Node =>
      binary(unary, (t) => (t.t === "sym" && /^[*/%]$/.test(t.v) ? t.v : null));
    const unary = (): Node => {
      if (sym("-")) {
        next();
        return { k: "neg", a: nest(unary) };
      }
      return atom();
    };
    const atom = (): Node => {
      const t = next();
      if (t.t === "num") return { k: "num", v: Number(t.v) };
      if (t.t === "str") return { k: "str", v: t.v };
      if (t.t === "sym" && t.v === "(") {
        const inner = or();
        expect(")");
        return inner;
      }
      if (t.t === "name") {
        if (t.v === "true" || t.v === "false") return { k: "bool", v: t.v === "true" };
        if (!sym("(")) {
          if (["and", "or", "not"].includes(t.v)) throw new Fail(t.at, `"${t.v}" needs a value`);
          return { k: "ref", name: t.v, at: t.at };
        }
        next();
        const args: Node[] = [];
        if (!sym(")")) {
          args.push(or());
          while (sym(",")) {
            next();
            args.push(or());
          }
        }
        expect(")");
        // not(x) is the operator written as a call: one node kind for both
        if (t.v === "not" && args.length === 1) return { k: "not", a: args[0]! };
        return { k: "call", fn: t.v, args, at: t.at };
      }
      p--;
      throw new Fail(t.at, t.t === "end" ? "a value is missing at the end" : `unexpected "${t.v}"`);
    };
    const node = or();
    if (peek().t !== "end") throw new Fail(peek().at, `unexpected "${peek().v}"`);
    return { ok: true, node };
  } catch (error) {
    if (error instanceof Fail)
      return { ok: false, error: { at: error.at, message: error.message } };
    throw error;
  }
}

/** The names an expression reads (answers, variables, hidden.<name>), each once, in order. */
export function exprRefs(node: Node, into: string[] = []): string[] {
  switch (node.k) {
    case "ref":
      if (!into.includes(node.name)) into.push(node.name);
      break;
    case "neg":
    case "not":
      exprRefs(node.a, into);
      break;
    case "op":
      exprRefs(node.a, into);
      exprRefs(node.b, into);
      break;
    case "call":
      for (const a of node.args) exprRefs(a, into);
      break;
  }
  return into;
}
