// A checked `where` (src/core/where/where.ts) as a SQL condition over `responses`. Every value
// and every field id travels as a bind parameter numbered after the caller's own: only the
// statement's shape follows the conditions (their ops and how many ids a field was stored under).
import { assertNever } from "../../../src/core/errors.ts";
import type { AnswerCondition, CompareOp, WhereCondition } from "../../../src/core/where/where.ts";
import { COPY_PARAMS } from "../../db/copy-out.ts";

export interface WhereSql {
  /** A boolean SQL expression: `true` for no conditions. */
  text: string;
  /** Its parameters, `$first`, `$first + 1`, … in order. */
  params: unknown[];
}

const CMP = { gt: ">", lt: "<", gte: ">=", lte: "<=", eq: "=", neq: "<>" } as const;

/** How the statement names its `index`-th value (from 0), read as `cast`. */
type Placeholder = (index: number, cast: string) => string;

/** Builds one statement's condition, handing out its values' placeholders. */
class Builder {
  readonly params: unknown[] = [];
  readonly casts: string[] = [];
  private readonly name: Placeholder;
  constructor(name: Placeholder) {
    this.name = name;
  }
  /** A placeholder bound to `value`, with a cast. */
  bind(value: unknown, cast: string): string {
    this.params.push(value);
    this.casts.push(cast);
    return this.name(this.params.length - 1, cast);
  }
}

/**
 * The answer as stored: `payload -> id`, or (a field renamed through `formerly`) the first of
 * its ids holding a value, newest first, as the export and report read it.
 */
function answer(c: AnswerCondition, b: Builder): string {
  const from = c.column ?? "payload";
  if (c.keys.length === 1) return `(${from} -> ${b.bind(c.keys[0], "text")})`;
  const each = c.keys.map((k) => `nullif(${from} -> ${b.bind(k, "text")}, 'null'::jsonb)`);
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
    c.keys.length === 1
      ? [c.column ?? "payload", `$.${JSON.stringify(c.keys[0])}`]
      : [answer(c, b), "$"];
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
    case "ending":
      // a response from before endings were recorded reached none of them
      return c.op === "eq"
        ? `ending = ${b.bind(c.value, "text")}`
        : `ending is distinct from ${b.bind(c.value, "text")}`;
    default:
      return assertNever(c);
  }
}

function build(where: readonly WhereCondition[], name: Placeholder): Builder & { text: string } {
  const b = new Builder(name);
  const parts = where.map((c) => conditionSql(c, b));
  return Object.assign(b, { text: parts.length > 0 ? `(${parts.join(" and ")})` : "true" });
}

/** The conditions, all of which must hold, with parameters numbered from `$first`. */
export function whereSql(where: readonly WhereCondition[], first: number): WhereSql {
  if (where.length === 0) return { text: "true", params: [] };
  const { text, params } = build(where, (i, cast) => `$${first + i}::${cast}`);
  return { text, params };
}

export interface CopyWhereSql extends WhereSql {
  /** `with p as materialized (…)`: the values as the one row `p`, to put before the select. */
  values: string;
}

/**
 * The conditions for a COPY statement, which takes no bind parameters: the values travel as one
 * JSON array, set for that statement alone as `formdown.copy_params` (bound, never written into
 * the text), and the statement reads them once, cast, into `p`, a one-row CTE, and each
 * condition names its value as `(select v0 from p)`: an uncorrelated subquery, which Postgres
 * runs once, before the scan, and reads as a constant. (Joining `p` to every row instead, with
 * `p.v0`, cost more than the filter itself: a COPY of 1M rows filtered on an NPS field, `<= 6`, took 2265 ms that
 * way, 1247 ms this way, and 1136 ms with the WHERE written by hand, issue 28.) The text holds
 * only the conditions' shape, as `whereSql`'s does.
 */
export function whereCopySql(where: readonly WhereCondition[]): CopyWhereSql {
  const b = build(where, (i) => `(select v${i} from p)`);
  const read = (cast: string, i: number) =>
    cast === "text[]"
      ? `array(select jsonb_array_elements_text(s -> ${i})) as v${i}`
      : `(s ->> ${i})::${cast} as v${i}`;
  const columns = b.casts.map(read);
  const values = `with p as materialized (select ${columns.length > 0 ? columns.join(", ") : "1 as none"} from (select current_setting('${COPY_PARAMS}')::jsonb as s) as s)`;
  return { text: b.text, params: b.params, values };
}
