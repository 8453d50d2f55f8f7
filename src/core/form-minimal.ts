// The smallest header that means a given form (SPEC §15): every key whose absence parses to the
// same form is left out, and the keys that stay come in the documented order. Defaults are found
// by asking the schema, not listed here, so a default added to the schema needs no change here.
import { z } from "zod";
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

/** Whether `unit` (one top-level key, or one field) parses with `schema` to `expected`. */
const parsesTo = (schema: z.ZodType, unit: Obj, expected: unknown) => {
  const parsed = schema.safeParse(unit);
  return parsed.success && sameJson(parsed.data, expected);
};

/**
 * Removes, one by one, every key of `node` (and of the maps under it) whose absence still parses
 * `unit` to `expected`. Each unit — a top-level key, or one field — is parsed alone: the form's
 * schema is a strict object of independent keys and its refinement only judges (it transforms
 * nothing), so a unit that parses to the same value leaves the whole form the same. (Parsing the
 * whole form for every key made a 500-field form cost 4,000 parses of 500 fields: 20 s of one
 * core.) The items of a list are not pruned: no list in the schema holds a default (options,
 * rows, conditions, steps, endings, variables), and a parse for each of their keys, each parse
 * reading them all, was quadratic: a field of 6,000 condition rules held the event loop minutes.
 */
function prune(unit: Obj, node: Obj, schema: z.ZodType, expected: unknown): void {
  for (const key of Object.keys(node)) {
    const value = node[key]!;
    delete node[key];
    if (parsesTo(schema, unit, expected)) continue;
    node[key] = value;
    if (isObj(value)) prune(unit, value, schema, expected);
  }
}

/** The form's header with only the keys that differ from the defaults, in the documented order. */
export function minimalHeader(form: Form): Obj {
  const { body: _, ...rest } = form;
  const header = JSON.parse(JSON.stringify(rest)) as Obj;
  const own = form as unknown as Obj;
  const shape = formSchema.shape as Record<string, z.ZodType>;
  for (const key of Object.keys(header)) {
    if (key === "fields") continue;
    const unit: Obj = { [key]: header[key]! };
    prune(unit, unit, z.object({ [key]: shape[key]! }), { [key]: own[key] });
    if (Object.hasOwn(unit, key)) header[key] = unit[key]!;
    else delete header[key];
  }
  const field = formSchema.shape.fields.element as z.ZodType;
  (header.fields as Obj[]).forEach((f, i) => {
    prune(f, f, field, form.fields[i]);
  });
  return ordered(header, []) as Obj;
}
