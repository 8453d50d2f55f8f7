// The smallest header that means a given form (SPEC §15): every key whose absence parses to the
// same form is left out, and the keys that stay come in the documented order. Defaults are found
// by asking the schema, not listed here, so a default added to the schema needs no change here.
import { type Form, formSchema } from "./schema.ts";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Obj = { [key: string]: Json };

const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/** Structural equality of JSON values (key order ignored). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((x, i) => sameJson(x, b[i]));
  if (isObj(a) && isObj(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => sameJson(a[k], b[k]));
  }
  return false;
}

const FIELD_FIRST = ["id", "type", "label", "required"];
// after the field's own keys (options, min, max, …): when it shows, where, and how it scores
const FIELD_LAST = ["show_if", "step", "answer", "points", "explanation"];

/** The documented key order: title, slug, type, …, fields last; in a field id, type, label, required. */
export function keyRank(path: readonly (string | number)[], key: string): number {
  const inField = path.length === 2 && path[0] === "fields";
  if (inField) {
    const first = FIELD_FIRST.indexOf(key);
    const last = FIELD_LAST.indexOf(key);
    return first >= 0 ? first : last >= 0 ? 100 + last : FIELD_FIRST.length;
  }
  if (path.length === 0) {
    if (key === "fields") return Number.MAX_SAFE_INTEGER;
    const order = Object.keys(formSchema.shape);
    const at = order.indexOf(key);
    return at >= 0 ? at : order.length;
  }
  return 0;
}

function ordered(value: Json, path: (string | number)[]): Json {
  if (Array.isArray(value)) return value.map((v, i) => ordered(v, [...path, i]));
  if (!isObj(value)) return value;
  const keys = Object.keys(value).map((k, i) => ({ k, i, r: keyRank(path, k) }));
  keys.sort((a, b) => a.r - b.r || a.i - b.i);
  return Object.fromEntries(keys.map(({ k }) => [k, ordered(value[k]!, [...path, k])]));
}

const parses = (header: Obj, body: string | undefined, form: Form) => {
  const parsed = formSchema.safeParse(body === undefined ? header : { ...header, body });
  return parsed.success && sameJson(parsed.data, form);
};

/** Removes, one by one, every key (at any depth) whose absence still parses to `form`. */
function prune(root: Obj, node: Obj, body: string | undefined, form: Form): void {
  for (const key of Object.keys(node)) {
    const value = node[key]!;
    delete node[key];
    if (parses(root, body, form)) continue;
    node[key] = value;
    if (isObj(value)) prune(root, value, body, form);
    else if (Array.isArray(value))
      for (const item of value) if (isObj(item)) prune(root, item, body, form);
  }
}

/** The form's header with only the keys that differ from the defaults, in the documented order. */
export function minimalHeader(form: Form): Obj {
  const { body, ...rest } = form;
  const header = JSON.parse(JSON.stringify(rest)) as Obj;
  prune(header, header, body, form);
  return ordered(header, []) as Obj;
}
