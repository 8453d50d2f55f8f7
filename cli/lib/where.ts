// `--where 'recommend<=6' --where 'fix~billing'` (SPEC §18): each flag one condition, written
// `field<op>value`, sent to the server as the JSON `where`; the server checks them against the
// form and names a bad one.
import { usage } from "./api.ts";

/** What `formdown … --help` says about --where. */
export const WHERE_HELP =
  'Only responses where this holds (repeat: all must): field=v, !=, >, <, >=, <=, ~ (text contains), [] = (list includes), []!= (excludes), field? (answered), field!? (unanswered); field may be submitted_at, version or lang; "6" keeps a value text';

/** Longest first: `<=` before `<`, `[]!=` before `[]=`. */
const OPS: [string, string][] = [
  ["[]!=", "excludes"],
  ["[]=", "includes"],
  ["!=", "neq"],
  [">=", "gte"],
  ["<=", "lte"],
  ["=", "eq"],
  [">", "gt"],
  ["<", "lt"],
  ["~", "contains"],
];
const FIELD = /^[A-Za-z0-9_-]+/;

/** A value as typed: a number or true/false as such, `"…"` as the text inside, the rest as text. */
function value(text: string): unknown {
  if (/^-?\d+(\.\d+)?$/.test(text)) return Number(text);
  if (text === "true" || text === "false") return text === "true";
  if (text.length >= 2 && text.startsWith('"') && text.endsWith('"')) return text.slice(1, -1);
  return text;
}

export interface Condition {
  field: string;
  op: string;
  value?: unknown;
}

/** One `--where` argument as a condition; a usage error when it has no field or no operator. */
export function parseCondition(text: string): Condition {
  const field = FIELD.exec(text)?.[0];
  if (!field) throw usage(`--where ${JSON.stringify(text)}: start with a field id`);
  const rest = text.slice(field.length);
  if (rest === "?") return { field, op: "answered" };
  if (rest === "!?") return { field, op: "unanswered" };
  const op = OPS.find(([sign]) => rest.startsWith(sign));
  if (!op)
    throw usage(
      `--where ${JSON.stringify(text)}: write field=value, !=, >, <, >=, <=, ~, []=, []!=, field? or field!?`,
    );
  return { field, op: op[1], value: value(rest.slice(op[0].length)) };
}

/** The `--where` flags (cac gives one string or a list) as the `where` query parameter's value. */
export function whereParam(flags: string | string[] | undefined): string | undefined {
  if (flags === undefined) return undefined;
  const list = (Array.isArray(flags) ? flags : [flags]).map(String).map(parseCondition);
  return list.length === 0 ? undefined : JSON.stringify(list);
}
