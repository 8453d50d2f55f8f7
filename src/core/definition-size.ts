// How much a form definition weighs (SPEC §19 "Bounded work per request"), measured the same way
// whatever it came as: a JSON body, MCP arguments or a form file's YAML header. In YAML, anchors
// and aliases (&name / *name) let js-yaml share one node at every use, so nine lines can stand
// for a billion values that any later walk (the schema, an error message, jsonb) would expand;
// here each shared node is weighed once and counted at every use, before anything else walks it.

/** The most a definition may weigh, about its length as JSON: twice what a 256 KB file writes. */
export const MAX_DEFINITION_WEIGHT = 512 * 1024;

/**
 * About the length of `value` as JSON, computed in time linear in its distinct nodes and
 * stopping early: returns a number over `limit` as soon as the total passes it.
 */
export function definitionWeight(value: unknown, limit = MAX_DEFINITION_WEIGHT): number {
  const seen = new Map<object, number>();
  const weigh = (v: unknown, depth: number): number => {
    if (typeof v === "string") return v.length + 2;
    if (typeof v === "number") return String(v).length;
    if (v === null || typeof v !== "object" || v instanceof Date) return 5;
    const known = seen.get(v);
    if (known !== undefined) return known;
    // a cycle or absurd depth weighs as too much (js-yaml builds no cycles; JSON cannot)
    if (depth > 64) return Infinity;
    seen.set(v, Infinity);
    let total = 2;
    if (Array.isArray(v)) {
      for (const item of v) {
        total += 1 + weigh(item, depth + 1);
        if (total > limit) break;
      }
    } else {
      for (const key in v) {
        total += key.length + 4 + weigh((v as Record<string, unknown>)[key], depth + 1);
        if (total > limit) break;
      }
    }
    seen.set(v, total);
    return total;
  };
  return weigh(value, 0);
}

/** Why a definition is too big, or null. */
export function definitionSizeProblem(value: unknown): string | null {
  return definitionWeight(value) > MAX_DEFINITION_WEIGHT
    ? `the form definition is too large (over ${MAX_DEFINITION_WEIGHT / 1024} KB as JSON, anchors and aliases expanded); split it or write fewer, shorter options`
    : null;
}
