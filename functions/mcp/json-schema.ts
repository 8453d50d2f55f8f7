import { z } from "zod";
import { fieldSchema } from "../../src/core/field-schema.ts";
import { FORM_SCHEMA_URI } from "../../src/core/form-json-schema.ts";
import { FIELD_TYPES, formSchema } from "../../src/core/schema.ts";
import { conditions, formSchemaAgain } from "./args.ts";
import type { ToolDef } from "./tool.ts";

const FIELD_BRIEF = {
  type: "object",
  description: `{label?, required?, options?, show_if?}; type: ${FIELD_TYPES.join(", ")}. Full schema: ${FORM_SCHEMA_URI}`,
  required: ["id", "type"],
};

/**
 * Compact stand-ins for the two big schemas in tool inputs (SPEC §14): tools/list stays small,
 * while the server still checks arguments against the complete zod schema, with full paths.
 */
const BRIEF = new Map<z.ZodType, Record<string, unknown>>([
  [
    formSchema,
    {
      type: "object",
      description: `type?: form|survey|quiz; e.g. {title: NPS, slug: nps, fields: [{id: score, type: nps}, {id: why, type: textarea, show_if: {field: score, op: lte, value: 6}}]}. Full schema: ${FORM_SCHEMA_URI}`,
      required: ["title", "slug", "fields"],
    },
  ],
  [
    formSchemaAgain,
    {
      type: "object",
      description: "As create_form takes it",
      required: ["title", "slug", "fields"],
    },
  ],
  [fieldSchema, FIELD_BRIEF],
  [conditions, { type: "array" }],
]);

const SAFE_INT = 9_007_199_254_740_991;

/**
 * Drops what only adds bytes: `{}` defaults, safe-integer bounds, string-typed property names,
 * minLength 1, `type` beside an enum, empty `properties`.
 */
function compact(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(compact);
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === "$schema" || key === "propertyNames") continue;
    if (key === "additionalProperties" && (value === false || isEmpty(value))) continue;
    if ((key === "minimum" || key === "maximum") && Math.abs(value as number) === SAFE_INT)
      continue;
    // a non-empty string (every slug and id): the server says so when one is empty
    if (key === "minLength" && value === 1) continue;
    // a count from 0 or 1 (page, limit, text_limit, count): likewise
    if (key === "minimum" && (value === 0 || value === 1) && "maximum" in node) continue;
    // an enum or const of strings says its type itself
    if (key === "type" && value === "string" && ("enum" in node || "const" in node)) continue;
    // no arguments at all: `{"type":"object"}` says so
    if (key === "properties" && isEmpty(value)) continue;
    // zod writes a nullable as `type: ["number", "null"]`, which strict validators (the MCP
    // Inspector's --strict) warn about: the portable form is one type per branch
    if (key === "type" && Array.isArray(value)) continue;
    out[key] = compact(value);
  }
  const types = (node as { type?: unknown }).type;
  if (Array.isArray(types)) {
    const branches = types.map((type) => ({ type }));
    // beside an anyOf of its own, both must hold
    if (out.anyOf) out.allOf = [...((out.allOf as unknown[]) ?? []), { anyOf: branches }];
    else out.anyOf = branches;
  }
  return out;
}
const isEmpty = (v: unknown) => !!v && typeof v === "object" && Object.keys(v).length === 0;

function toJson(schema: z.ZodType, io: "input" | "output"): Record<string, unknown> {
  const json = z.toJSONSchema(schema, {
    io,
    unrepresentable: "any",
    override: (ctx) => {
      const brief = BRIEF.get(ctx.zodSchema as unknown as z.ZodType);
      if (!brief) return;
      for (const key of Object.keys(ctx.jsonSchema)) delete ctx.jsonSchema[key];
      Object.assign(ctx.jsonSchema, brief);
    },
  });
  return compact(unusedDefs(json)) as Record<string, unknown>;
}

/**
 * Drops the `$defs` nothing refers to: a brief stands in for the form or a field, but zod has
 * already lifted what recurses inside them (a show_if condition, SPEC §24) into `$defs`.
 */
function unusedDefs(json: Record<string, unknown>): Record<string, unknown> {
  const defs = json.$defs as Record<string, unknown> | undefined;
  if (!defs) return json;
  const { $defs: _, ...rest } = json;
  const kept: Record<string, unknown> = {};
  let reached = JSON.stringify(rest);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [name, def] of Object.entries(defs))
      if (!(name in kept) && reached.includes(`"#/$defs/${name}"`)) {
        kept[name] = def;
        reached += JSON.stringify(def);
        grew = true;
      }
  }
  return Object.keys(kept).length > 0 ? { ...rest, $defs: kept } : rest;
}

/** The tool's input as JSON Schema (2020-12, input view: defaults optional). */
export function inputJsonSchema(tool: ToolDef): Record<string, unknown> {
  return toJson(tool.input, "input");
}

/**
 * The tool's output as JSON Schema. A failed call answers `{error, code, details?}` as its
 * structuredContent too (SPEC §7), and 2025-era clients check even those against the schema:
 * so the success keys are required in one branch and `error`+`code` in the other.
 */
export function outputJsonSchema(tool: ToolDef): Record<string, unknown> {
  const json = namedKeys(toJson(tool.output, "output"), true) as Record<string, unknown>;
  const required = (json.required as string[] | undefined) ?? [];
  delete json.required;
  // an answer that names no key admits a failure already
  if (required.length === 0) return json;
  // `error` alone tells the branches apart (a failure carries code too)
  return { ...json, anyOf: [{ required }, { required: ["error"] }] };
}

const SCALARS = new Set(["string", "number", "integer", "boolean"]);
/** `{"type": "string"}` and the like: a plain scalar, nothing else said of it. */
const isScalar = (v: unknown) =>
  !!v &&
  typeof v === "object" &&
  Object.keys(v).length === 1 &&
  SCALARS.has((v as { type?: unknown }).type as string);

/**
 * An answer's string keys that are always there (ids, URLs, timestamps, texts) are named in
 * `required` alone, without a `{"type": "string"}` each in `properties` (1,400 bytes of tools/list,
 * SPEC §14's 20,000-byte budget); every other key keeps its type in `properties`. Inside the
 * answer (list items, nested objects) only those string keys are required: the others are listed
 * with their types (test/mcp/seed-names.test.ts pins the nested keys each answer carries).
 */
function namedKeys(node: unknown, top: boolean): unknown {
  if (Array.isArray(node)) return node.map((n) => namedKeys(n, false));
  if (!node || typeof node !== "object") return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) out[key] = namedKeys(value, false);
  const properties = out.properties as Record<string, unknown> | undefined;
  const required = out.required as string[] | undefined;
  if (!properties || !required) return out;
  const named = required.filter((key) => isScalar(properties[key]));
  for (const key of named) delete properties[key];
  if (Object.keys(properties).length === 0) delete out.properties;
  if (top) return out;
  if (named.length) out.required = named;
  else delete out.required;
  return out;
}
