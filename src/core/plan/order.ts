import type { Field } from "../field-schema.ts";
import { matchLines } from "../line-diff.ts";
import type { DraftChange } from "./plan.ts";

/**
 * Fields that changed place (move_field, or a reordered `fields` list): the fewest fields whose
 * move explains the new order, each with its new neighbour. Order touches no stored answer.
 */
export function movedFields(old: readonly Field[], next: readonly Field[]): DraftChange[] {
  const kept = new Set(old.map((f) => f.id));
  const now = next.filter((f) => kept.has(f.id)).map((f) => f.id);
  const shared = new Set(now);
  const was = old.filter((f) => shared.has(f.id)).map((f) => f.id);
  // the longest run of fields that kept their relative order stays; the others moved (of two
  // neighbours that swapped, the one now first)
  const stay = matchLines(now, was);
  const moved = new Set(now.filter((_, i) => stay[i] === -1));
  return next
    .filter((f) => moved.has(f.id))
    .map((f) => {
      const i = next.indexOf(f);
      const where = i === 0 ? "first" : `after ${next[i - 1]!.id}`;
      return { kind: "field_moved", field: f.id, detail: `field ${f.id} moved ${where}` };
    });
}
