import { type Column, numberField } from "../../../src/core/csv.ts";
import { type Lineage, lineage } from "../../../src/core/plan/lineage.ts";
import type { Form } from "../../../src/core/schema.ts";
import type { AppContext } from "../../context.ts";
import { earlierDefinitions } from "./history.ts";

/** How the form's stored answers read under its live definition (src/core/plan/lineage.ts). */
export async function formLineage(
  ctx: AppContext,
  row: { id: string; definition: Form },
): Promise<Lineage> {
  return lineage(row.definition, await earlierDefinitions(ctx, row.id));
}

/** Earlier id → live id, for SQL that reads answers under the live ids (`formdown_carry`). */
export function aliases(l: Lineage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [id, keys] of l.keys) for (const k of keys.slice(1)) out[k] = id;
  return out;
}

/**
 * Export columns of retired fields, after the live ones (SPEC §16): `budget (retired)` in CSV,
 * the bare id where the format names keys (Markdown). Their answers are read as stored.
 */
export function retiredColumns(l: Lineage, suffix: string): Column[] {
  return l.retired.map((f) => ({
    header: `${f.id}${suffix}`,
    label: `${f.label ?? f.id} (retired)`,
    path: [f.id],
    list: f.type === "checkbox" || f.type === "ranking",
    number: numberField(f),
    date: f.type === "date",
    read: (p) => p[f.id],
  }));
}

/**
 * Counts keyed by field id, read under the live ids: an earlier id's count (`formerly`) is added
 * to the live field that carries it on; ids no live field claims stay as they are.
 */
export function foldUnderLiveIds(counts: Map<string, number>, l: Lineage): Map<string, number> {
  const out = new Map(counts);
  for (const [id, keys] of l.keys)
    for (const k of keys.slice(1)) {
      const n = out.get(k);
      if (n === undefined) continue;
      out.set(id, (out.get(id) ?? 0) + n);
      out.delete(k);
    }
  return out;
}
