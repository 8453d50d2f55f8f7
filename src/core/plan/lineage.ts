import type { Field } from "../field-schema.ts";
import { optionFormerly, optionValue } from "../options.ts";
import type { Form } from "../schema.ts";

/**
 * How stored answers read under the live definition (SPEC §16 "Reads across versions"): through
 * `formerly`, an earlier field id counts as the live field that names it, and an earlier option
 * label as the live option; ids no live field claims are retired, kept under their own id.
 */
export interface Lineage {
  /** Live field id → every id its answers may be stored under (its own first). */
  keys: Map<string, string[]>;
  /** Live field id → earlier option label → live label. */
  options: Map<string, Map<string, string>>;
  /** Fields of earlier versions that no live field carries on, oldest first. */
  retired: Field[];
  /** Whether reading changes anything: some alias or option label to map. */
  maps: boolean;
}

/** Follows `formerly` links to the end, with a guard against a cycle an author wrote. */
function resolve(id: string, alias: Map<string, string>, live: Set<string>): string {
  let at = id;
  for (let i = 0; i < 50 && !live.has(at) && alias.has(at); i++) at = alias.get(at)!;
  return at;
}

/** The lineage of `current` over the definitions of its earlier versions (oldest first). */
export function lineage(current: Form, history: readonly Form[]): Lineage {
  const all = [...history, current];
  const live = new Set(current.fields.map((f) => f.id));
  const alias = new Map<string, string>();
  for (const form of all)
    for (const f of form.fields)
      for (const old of f.formerly ?? []) if (old !== f.id && !live.has(old)) alias.set(old, f.id);
  const keys = new Map(current.fields.map((f) => [f.id, [f.id]]));
  const seen = new Map<string, Field>();
  for (const form of all) for (const f of form.fields) seen.set(f.id, f);
  // newest first, so a payload holding several of a field's ids reads the latest one
  const order = [...all]
    .reverse()
    .flatMap((form) => form.fields.flatMap((f) => [f.id, ...(f.formerly ?? [])]));
  for (const id of order) {
    if (live.has(id)) continue;
    const to = resolve(id, alias, live);
    if (live.has(to) && !keys.get(to)!.includes(id)) keys.get(to)!.push(id);
  }
  const retired = [...seen.values()].filter(
    (f) => f.type !== "statement" && !live.has(resolve(f.id, alias, live)),
  );
  const options = new Map<string, Map<string, string>>();
  for (const f of current.fields) {
    const names = new Set(keys.get(f.id));
    const renames = new Map<string, string>();
    for (const form of all)
      for (const g of form.fields)
        if (names.has(g.id) && "options" in g)
          for (const o of g.options)
            for (const was of optionFormerly(o)) renames.set(was, optionValue(o));
    if (!("options" in f) || renames.size === 0) continue;
    const labels = new Set(f.options.map(optionValue));
    const map = new Map<string, string>();
    for (const was of renames.keys()) {
      let to = was;
      for (let i = 0; i < 50 && !labels.has(to) && renames.has(to); i++) to = renames.get(to)!;
      if (labels.has(to) && to !== was && !labels.has(was)) map.set(was, to);
    }
    if (map.size > 0) options.set(f.id, map);
  }
  const maps = options.size > 0 || [...keys.values()].some((k) => k.length > 1);
  return { keys, options, retired, maps };
}

const relabel = (value: unknown, map: Map<string, string> | undefined): unknown => {
  if (!map) return value;
  if (typeof value === "string") return map.get(value) ?? value;
  if (Array.isArray(value))
    return value.map((v) => (typeof v === "string" ? (map.get(v) ?? v) : v));
  return value;
};

/**
 * A stored payload read under the live definition: live fields under their id (an answer under
 * an earlier id moves over, option labels follow), retired fields and `_hidden` as stored.
 */
export function carry(payload: Record<string, unknown>, l: Lineage): Record<string, unknown> {
  if (!l.maps) return payload;
  const out: Record<string, unknown> = {};
  const moved = new Set<string>();
  for (const [id, keys] of l.keys) {
    const key = keys.find((k) => payload[k] !== undefined && payload[k] !== null);
    if (key === undefined) continue;
    out[id] = relabel(payload[key], l.options.get(id));
    for (const k of keys) moved.add(k);
  }
  for (const [k, v] of Object.entries(payload)) if (!moved.has(k) && !(k in out)) out[k] = v;
  return out;
}
