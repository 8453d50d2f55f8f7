// JSON Schema → fast-check arbitraries for the generated fuzz (SPEC §23 "A fuzz from the one
// declaration"): values the schema declares, the same with hostile values mixed in at any depth,
// and hostile values alone (fuzz-hostile.ts).
import fc from "fast-check";
import { hostileValue, KEY, unknownKey } from "./fuzz-hostile.ts";

export type Schema = Record<string, unknown> | boolean;

// Arbitraries are made once and shared: making a string arbitrary costs fast-check a tokenizing
// of its default slices, and a schema of a few hundred nodes made thousands of them per request.
const ANY_JSON = fc.jsonValue({ maxDepth: 2 });
const strings = new Map<string, fc.Arbitrary<string>>();
const stringArb = (minLength: number, maxLength: number) => {
  const key = `${minLength}:${maxLength}`;
  if (!strings.has(key)) strings.set(key, fc.string({ minLength, maxLength }));
  return strings.get(key)!;
};

/** Real values for a property or parameter of that name (a slug that exists, a field id…). */
export type Hints = Record<string, fc.Arbitrary<unknown> | undefined>;

export interface Generator {
  /** What the schema declares, with the hints' real values wherever a name has them. */
  valid: fc.Arbitrary<unknown>;
  /** The same shape with hostile values, unknown keys and missing required keys at any depth. */
  mixed: fc.Arbitrary<unknown>;
}

/** Arbitraries for one JSON Schema; `$ref`s are resolved in `root` (an OpenAPI document). */
export function fromSchema(schema: Schema, root: object, hints: Hints = {}): Generator {
  return {
    valid: build(schema, { root, hints, hostile: false, depth: 0 }),
    mixed: build(schema, { root, hints, hostile: true, depth: 0 }),
  };
}

/** What a request sends: declared values, hostile ones mixed in, or hostile ones alone. */
export const anyOf = (g: Generator): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 2, arbitrary: g.valid },
    { weight: 3, arbitrary: g.mixed },
    { weight: 1, arbitrary: hostileValue },
  );

interface Ctx {
  root: object;
  hints: Hints;
  hostile: boolean;
  depth: number;
}

const MAX_DEPTH = 6;

/** A form definition's schema, however it is spelled: an object that requires these. */
const isDefinition = (s: Schema) =>
  typeof s === "object" &&
  ["title", "slug", "fields"].every((k) => (s.required as string[] | undefined)?.includes(k));

function build(schema: Schema, ctx: Ctx, name?: string): fc.Arbitrary<unknown> {
  const declared = declaredValue(schema, ctx, name);
  const resolved = typeof schema === "object" ? resolve(schema, ctx.root) : schema;
  const hint =
    (name === undefined ? undefined : ctx.hints[name]) ??
    (isDefinition(resolved) ? ctx.hints.definition : undefined);
  // declared values only: a real value where there is one (a slug that exists beats a random one)
  if (!ctx.hostile && hint) return hint;
  const value = hint ? fc.oneof(hint, declared) : declared;
  return ctx.hostile
    ? fc.oneof({ weight: 4, arbitrary: value }, { weight: 1, arbitrary: hostileValue })
    : value;
}

function declaredValue(schema: Schema, ctx: Ctx, name?: string): fc.Arbitrary<unknown> {
  if (schema === true || schema === false || ctx.depth > MAX_DEPTH) return ANY_JSON;
  const s = resolve(schema, ctx.root);
  const next = { ...ctx, depth: ctx.depth + 1 };
  if ("const" in s) return fc.constant(s.const);
  if (Array.isArray(s.enum) && s.enum.length) return fc.constantFrom(...(s.enum as unknown[]));
  const branches = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (branches?.length) return fc.oneof(...branches.map((b) => build(b, next, name)));
  if (Array.isArray(s.allOf)) return declaredValue(mergeAll(s.allOf as Schema[], ctx.root), ctx);
  const type = s.type ?? (s.properties ? "object" : s.items ? "array" : undefined);
  if (Array.isArray(type))
    return fc.oneof(...type.map((t) => declaredValue({ ...s, type: t }, ctx, name)));
  switch (type) {
    case "string":
      return stringOf(s);
    case "integer":
      return numberOf(s, true);
    case "number":
      return numberOf(s, false);
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return arrayOf(s, next);
    case "object":
      return objectOf(s, next);
    default:
      return ANY_JSON;
  }
}

function resolve(schema: Record<string, unknown>, root: object): Record<string, unknown> {
  let s = schema;
  for (let hops = 0; typeof s.$ref === "string" && hops < 10; hops++) {
    const path = (s.$ref as string).replace(/^#\//, "").split("/");
    const target = path.reduce<unknown>(
      (node, key) => (node as Record<string, unknown>)?.[key],
      root,
    );
    const { $ref: _, ...rest } = s;
    s = { ...(target as Record<string, unknown>), ...rest };
  }
  return s;
}

function mergeAll(parts: Schema[], root: object): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const part of parts) {
    if (typeof part !== "object") continue;
    const s = resolve(part, root);
    Object.assign(out, s, {
      properties: { ...(out.properties as object), ...(s.properties as object) },
      required: [...((out.required as string[]) ?? []), ...((s.required as string[]) ?? [])],
    });
  }
  return out;
}

const once = <T>(make: () => T) => {
  let made: T | undefined;
  return () => (made ??= make());
};

/** Made on first use: an email or URL arbitrary costs fast-check much to make. */
const FORMATS: Record<string, () => fc.Arbitrary<string>> = {
  uuid: once(() => fc.uuid()),
  "date-time": once(() => fc.date({ noInvalidDate: true }).map((d) => d.toISOString())),
  date: once(() => fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10))),
  email: once(() => fc.emailAddress()),
  // not fc.webUrl(), which took seconds to make
  uri: once(() =>
    fc
      .tuple(
        fc.constantFrom("https://", "http://", "ftp://", "javascript:", "//"),
        fc.constantFrom("example.org", "127.0.0.1", "[::1]", "169.254.169.254", "xn--e1a.com"),
        KEY,
      )
      .map(([scheme, host, path]) => `${scheme}${host}/${encodeURIComponent(path)}`),
  ),
};

function stringOf(s: Record<string, unknown>): fc.Arbitrary<string> {
  const min = (s.minLength as number) ?? 0;
  const max = Math.min((s.maxLength as number) ?? 40, min + 40);
  const plain = stringArb(min, max);
  const byFormat = FORMATS[s.format as string]?.();
  const byPattern = typeof s.pattern === "string" ? patterned(s.pattern) : undefined;

  const around = [min - 1, min, (s.maxLength as number) ?? -1, ((s.maxLength as number) ?? -2) + 1]
    .filter((n) => n >= 0 && n <= 100_000)
    .map((n) => "x".repeat(n));
  return fc.oneof(
    { weight: 3, arbitrary: byFormat ?? byPattern ?? plain },
    { weight: 1, arbitrary: around.length ? fc.constantFrom(...around) : plain },
  );
}

const patterns = new Map<string, fc.Arbitrary<string> | undefined>();

/** Strings a pattern matches; none for a negated class (fast-check draws and refuses each char). */
function patterned(pattern: string): fc.Arbitrary<string> | undefined {
  if (/\[\^|\\[SWD]/.test(pattern)) return undefined;
  if (!patterns.has(pattern)) {
    try {
      patterns.set(
        pattern,
        fc.stringMatching(new RegExp(pattern)).filter((x) => x.length <= 200),
      );
    } catch {
      patterns.set(pattern, undefined);
    }
  }
  return patterns.get(pattern);
}

function numberOf(s: Record<string, unknown>, integer: boolean): fc.Arbitrary<number> {
  const min = (s.minimum as number) ?? (s.exclusiveMinimum as number);
  const max = (s.maximum as number) ?? (s.exclusiveMaximum as number);
  const lo = Math.max(min ?? Math.min(-1000, (max ?? 0) - 1000), -(2 ** 31));
  const hi = Math.max(lo, Math.min(max ?? lo + 2000, 2 ** 31));
  const inRange = integer
    ? fc.integer({ min: Math.ceil(lo), max: Math.floor(hi) })
    : fc.double({ min: lo, max: hi, noNaN: true });
  const edges = [min, max].filter((n) => typeof n === "number").flatMap((n) => [n - 1, n, n + 1]);
  return edges.length
    ? fc.oneof(
        { weight: 3, arbitrary: inRange },
        { weight: 1, arbitrary: fc.constantFrom(...edges) },
      )
    : inRange;
}

function arrayOf(s: Record<string, unknown>, ctx: Ctx): fc.Arbitrary<unknown[]> {
  const items = (s.items as Schema) ?? true;
  const minLength = (s.minItems as number) ?? 0;
  const maxLength = Math.min((s.maxItems as number) ?? 4, minLength + 4);
  return fc.array(build(items, ctx), { minLength, maxLength: Math.max(minLength, maxLength) });
}

function objectOf(s: Record<string, unknown>, ctx: Ctx): fc.Arbitrary<Record<string, unknown>> {
  const props = (s.properties ?? {}) as Record<string, Schema>;
  const required = (s.required as string[]) ?? [];
  const model = Object.fromEntries(
    Object.entries(props).map(([key, sub]) => [key, build(sub, ctx, key)]),
  );
  // hostile: every key optional (required ones go missing) and unknown keys beside them
  const record = fc.record(model, {
    requiredKeys: ctx.hostile ? [] : required.filter((k) => k in model),
  });
  const extra =
    typeof s.additionalProperties === "object"
      ? fc.dictionary(KEY, build(s.additionalProperties as Schema, ctx), {
          maxKeys: 3,
        })
      : fc.constant({});
  const unknown = ctx.hostile
    ? fc.dictionary(unknownKey, hostileValue, { maxKeys: 2 })
    : fc.constant({});
  return fc.tuple(unknown, extra, record).map(ownKeys);
}

/** The objects' keys merged as own properties: a `__proto__` key stays a key, as JSON has it. */
function ownKeys(parts: Record<string, unknown>[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const part of parts)
    for (const [key, value] of Object.entries(part))
      Object.defineProperty(out, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
      });
  return out;
}
