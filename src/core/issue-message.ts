// Friendly wording for the schema's problems (SPEC §15): "must be at most 10", not zod's "Too
// big: expected number to be <=10"; unknown keys and types with a "did you mean".
import type { z } from "zod";
import { closest, didYouMean } from "./did-you-mean.ts";
import { FIELD_TYPES } from "./field-schema.ts";
import { quote } from "./quote.ts";

type Issue = z.core.$ZodIssue;
// zod 4 keeps a schema's definition under `def`; only the parts walked here are named
type Def = {
  type: string;
  shape?: Record<string, { def: Def }>;
  innerType?: { def: Def };
  element?: { def: Def };
  options?: { def: Def }[];
  in?: { def: Def };
};

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The keys an object at `path` may have, following the input (a field's branch by its type). */
export function knownKeys(
  root: { def: Def },
  input: unknown,
  path: readonly PropertyKey[],
): string[] {
  let def: Def | undefined = root.def;
  let value: unknown = input;
  const steps = [...path];
  for (;;) {
    if (!def) return [];
    if (["default", "prefault", "optional", "nullable", "readonly"].includes(def.type)) {
      def = def.innerType?.def;
      continue;
    }
    if (def.type === "pipe") {
      def = def.in?.def;
      continue;
    }
    if (def.type === "union") {
      const objects = (def.options ?? []).map((o) => o.def).filter((d) => d.type === "object");
      const type = isObj(value) ? value.type : undefined;
      const branch = objects.find((d) => {
        const literal = d.shape?.type?.def as { values?: unknown[] } | undefined;
        return literal?.values?.includes(type);
      });
      if (branch) def = branch;
      else if (objects.length > 0 && steps.length === 0)
        return [...new Set(objects.flatMap((d) => Object.keys(d.shape ?? {})))];
      else if (objects.length > 0) def = objects[0];
      else return [];
      continue;
    }
    if (steps.length === 0) return def.type === "object" ? Object.keys(def.shape ?? {}) : [];
    const key = steps.shift()!;
    if (def.type === "object") def = def.shape?.[String(key)]?.def;
    else if (def.type === "array") def = def.element?.def;
    else return [];
    value =
      isObj(value) || Array.isArray(value)
        ? (value as Record<string, unknown>)[key as string]
        : undefined;
  }
}

/** How a value reads in a message: "a string", "an array", "null". */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" || type === "undefined" ? `an ${type}` : `a ${type}`;
}

const NOUN: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  array: "a list",
  object: "an object",
  record: "an object",
};

const list = (values: readonly unknown[]) => values.map((v) => String(v)).join(", ");
// zod's own wording starts like this; a message the schema spelled out is kept as it is
const ZOD_DEFAULT = /^(Too big|Too small|Invalid|Unrecognized|Expected)/;

function bound(issue: Issue & { code: "too_big" | "too_small" }): string {
  const big = issue.code === "too_big";
  const n = Number(big ? issue.maximum : issue.minimum);
  const inclusive = issue.inclusive !== false;
  const word = big ? (inclusive ? "at most" : "less than") : inclusive ? "at least" : "more than";
  switch (issue.origin) {
    case "string":
      return `must be ${word} ${n} character${n === 1 ? "" : "s"} long`;
    case "array":
    case "set":
      return `must have ${word} ${n} item${n === 1 ? "" : "s"}`;
    default:
      return `must be ${word} ${n}`;
  }
}

const valueAt = (input: unknown, path: readonly PropertyKey[]) =>
  path.reduce<unknown>(
    (v, k) => (isObj(v) || Array.isArray(v) ? (v as Record<PropertyKey, unknown>)[k] : undefined),
    input,
  );

/** One issue in an author's words. `input` is what was parsed, for "did you mean". */
export function issueMessage(issue: Issue, input: unknown, schema: { def: unknown }): string {
  const last = issue.path.at(-1);
  // without the parsed input (an MCP tool's arguments), zod's own copy of the value
  const given =
    input === undefined ? (issue as { input?: unknown }).input : valueAt(input, issue.path);
  if (issue.code === "invalid_type" && given === undefined) return "is required";
  if (issue.code === "unrecognized_keys") {
    // suggestions only for a form definition (MCP tool arguments come without `input`)
    const known = input === undefined ? [] : knownKeys(schema as { def: Def }, input, issue.path);
    const each = issue.keys.slice(0, 20).map((k) => `${quote(k, 60)}${didYouMean(k, known)}`);
    return `unknown ${issue.keys.length === 1 ? "key" : "keys"} ${each.join(", ")}`;
  }
  if (
    issue.code === "invalid_union" &&
    "note" in issue &&
    issue.note === "No matching discriminator"
  ) {
    const type = typeof given === "string" ? given : isObj(given) ? given.type : undefined;
    const hint = typeof type === "string" ? closest(type, FIELD_TYPES) : null;
    const head = typeof type === "string" ? `unknown type ${quote(type, 60)}` : "is required";
    return `${head}${hint ? ` (did you mean "${hint}"?)` : ""}; the field types are ${list(FIELD_TYPES)}`;
  }
  if (!ZOD_DEFAULT.test(issue.message)) return issue.message;
  switch (issue.code) {
    case "too_big":
    case "too_small":
      return bound(issue);
    case "invalid_type":
      // what was expected and what came (SPEC §14): a present value is never "required"
      return `expected ${NOUN[issue.expected] ?? issue.expected}, got ${describeValue(given)}`;
    case "invalid_value": {
      const hint = typeof given === "string" ? didYouMean(given, issue.values.map(String)) : "";
      const got = given === undefined ? "" : `, got ${quote(given, 60)}`;
      return `must be one of ${list(issue.values)}${got}${hint}`;
    }
    case "invalid_format":
      return issue.format === "email"
        ? "must be an email address"
        : `must be a valid ${issue.format}`;
    case "invalid_union":
      return last === "step"
        ? "must be a page: a positive whole number or a short label (a scale's distance between values is increment)"
        : "is not one of the accepted shapes";
    default:
      return issue.message;
  }
}
