// The form schema's field types share most of their properties (id, label, show_if, media, quiz
// keys …). Written out in each of the 17 types they made the JSON Schema 46 KB; here they are
// stated once in $defs (SPEC §18: ≤ 20,000 bytes) and each type refers to them.

type Json = Record<string, unknown>;

const key = (v: unknown) => JSON.stringify(v);

/**
 * Rewrites the field types (`oneOf` variants, each a closed object) so that the properties every
 * type has alike live in `$defs.field` and a property several types share alike is one `$defs`
 * entry. Each type keeps only what is its own and closes itself with `unevaluatedProperties:
 * false` (JSON Schema 2020-12), so what validates is exactly what did before.
 */
export function shareFieldProperties(variants: Json[]): { variants: Json[]; defs: Json } {
  const props = variants.map((v) => (v.properties ?? {}) as Json);
  const names = [...new Set(props.flatMap((p) => Object.keys(p)))];
  const common = names.filter(
    (n) => n !== "type" && props.every((p) => n in p && key(p[n]) === key(props[0]![n])),
  );
  const defs: Json = { field: { type: "object", properties: pick(props[0]!, common) } };
  // a property that two or more types have alike: one entry, named after it
  const shared = new Map<string, string>();
  for (const n of names) {
    if (n === "type" || common.includes(n)) continue;
    const seen = new Map<string, number>();
    for (const p of props) if (n in p) seen.set(key(p[n]), (seen.get(key(p[n])) ?? 0) + 1);
    let i = 0;
    for (const [schema, count] of seen) {
      if (count < 2) continue;
      const name = i++ === 0 ? n : `${n}_${i}`;
      defs[name] = JSON.parse(schema);
      shared.set(`${n} ${schema}`, name);
    }
  }
  const rewritten = variants.map((v, index) => {
    const own: Json = {};
    for (const [n, schema] of Object.entries(props[index]!)) {
      if (common.includes(n)) continue;
      const def = shared.get(`${n} ${key(schema)}`);
      own[n] = def ? { $ref: `#/$defs/${def}` } : schema;
    }
    const { properties: _p, additionalProperties: _a, type: _t, ...rest } = v;
    return { $ref: "#/$defs/field", ...rest, properties: own, unevaluatedProperties: false };
  });
  return { variants: rewritten, defs };
}

function pick(from: Json, names: string[]): Json {
  return Object.fromEntries(names.map((n) => [n, from[n]]));
}
