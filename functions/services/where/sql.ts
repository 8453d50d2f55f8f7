// A checked `where` (src/core/where/where.ts) as a SQL condition over `responses`. Every value
// and every field id travels as a bind parameter numbered after the caller's own: only the
// statement's shape follows the conditions (their ops and how many ids a field was stored under).
import { assertNever } from "../../../src/core/errors.ts";
import type { AnswerCondition, CompareOp, WhereCondition } from "../../../src/core/where/where.ts";

export interface WhereSql {
  /** A boolean SQL expression: `true` for no conditions. */
  text: string;
  /** Its parameters, `$first`, `$first + 1`, … in order. */
  params: unknown[];
}

const CMP = { gt: ">", lt: "<", gte: ">=", lte: "<=", eq: "=", neq: "<>" } as const;

/** Builds one statement's condition, handing out parameter numbers from `first`. */
class Builder {
  readonly params: unknown[] = [];
  private readonly first: number;
  constructor(first: number) {
    this.first = first;
  }
  /** `$n` bound to `value`, with a cast. */
  bind(value: unknown, cast: string): string {
    this.params.push(value);
    return `$${this.first + this.params.length - 1}::${cast}`;
  }
}

/**
 * The answer as stored: `payload -> id`, or (a field renamed through `formerly`) the first of
 * its ids holding a value, newest first, as the export and report read it.
 */
function answer(c: AnswerCondition, b: Builder): string {
  if (c.keys.length === 1) return `(payload -> ${b.bind(c.keys[0], "text")})`;
  const each = c.keys.map((k) => `nullif(payload -> ${b.bind(k, "text")}, 'null'::jsonb)`);
  return `coalesce(${each.join(", ")})`;
}

/**
 * gt/lt/gte/lte as a strict jsonpath comparison, which holds only between two numbers (or two
 * strings: ISO dates sort as text), so text and lists never match without a type test and the
 * answer is read once. For a field with one id the path names it (quoted inside the bound path:
 * a field id is snake_case), over the whole payload: cheaper than taking `payload -> id` first.
 * The planner estimates it as a hand-written comparison (a third of the rows), not as the rare
 * match a type test would make it (which chose sorts and full scans for the report).
 */
function compareSql(c: AnswerCondition & { op: CompareOp }, b: Builder): string {
  const [on, path] =
    c.keys.length === 1 ? ["payload", `$.${JSON.stringify(c.keys[0])}`] : [answer(c, b), "$"];
  const vars = b.bind(JSON.stringify({ v: c.value }), "jsonb");
  return `jsonb_path_match(${on}, ${b.bind(`strict ${path} ${CMP[c.op]} $v`, "jsonpath")}, ${vars}, true)`;
}

function answerSql(c: AnswerCondition, b: Builder): string {
  // the answer's ids are bound once, and only by the ops that read `payload -> id`
  let read: string | undefined;
  const v = () => (read ??= answer(c, b));
  const strings = () => b.bind(c.matches, "text[]");
  switch (c.op) {
    case "eq":
    case "neq": {
      // an option matches under its earlier labels too; any other value as one jsonb value
      const eq =
        c.matches.length > 1
          ? `(jsonb_typeof(${v()}) = 'string' and ${v()} #>> '{}' = any(${strings()}))`
          : `(${v()} = ${b.bind(JSON.stringify(c.value), "jsonb")})`;
      return c.op === "eq" ? eq : `not coalesce(${eq}, false)`;
    }
    case "gt":
    case "lt":
    case "gte":
    case "lte":
      return compareSql({ ...c, op: c.op }, b);
    case "includes":
    case "excludes": {
      const has = `(jsonb_typeof(${v()}) = 'array' and ${v()} ?| ${strings()})`;
      return c.op === "includes" ? has : `not coalesce(${has}, false)`;
    }
    case "contains":
      return `(jsonb_typeof(${v()}) = 'string' and strpos(lower(${v()} #>> '{}'), ${b.bind(String(c.value).toLowerCase(), "text")}) > 0)`;
    case "answered":
      return `coalesce(jsonb_typeof(${v()}), 'null') <> 'null'`;
    case "unanswered":
      return `coalesce(jsonb_typeof(${v()}), 'null') = 'null'`;
    default:
      return assertNever(c.op);
  }
}

function conditionSql(c: WhereCondition, b: Builder): string {
  switch (c.on) {
    case "answer":
      return answerSql(c, b);
    case "submitted_at":
      return `submitted_at ${CMP[c.op]} ${b.bind(c.value, "timestamptz")}`;
    case "version":
      // responses from before versions were recorded were answered against the first
      return `coalesce(version, 1) ${CMP[c.op]} ${b.bind(c.value, "int")}`;
    case "lang":
      // no language recorded: the form's own
      return `coalesce(lang, ${b.bind(c.own, "text")}) ${CMP[c.op]} ${b.bind(c.value, "text")}`;
    default:
      return assertNever(c);
  }
}

/** The conditions, all of which must hold, with parameters numbered from `$first`. */
export function whereSql(where: readonly WhereCondition[], first: number): WhereSql {
  if (where.length === 0) return { text: "true", params: [] };
  const b = new Builder(first);
  const parts = where.map((c) => conditionSql(c, b));
  return { text: `(${parts.join(" and ")})`, params: b.params };
}
