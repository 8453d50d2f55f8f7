// A field's own changes in a plan (SPEC §16): its type, options, rules and wording, and whether
// the answers it holds still fit it.
import type { Field, FieldType } from "../field-schema.ts";
import { optionFormerly, optionValue } from "../options.ts";
import { deepEqual } from "../show-if.ts";
import type { DraftChange } from "./plan.ts";

const VALUE: Record<FieldType, "string" | "number" | "list" | "object" | "none"> = {
  text: "string",
  email: "string",
  textarea: "string",
  number: "number",
  radio: "string",
  checkbox: "list",
  select: "string",
  date: "string",
  image: "string",
  file: "string",
  rating: "number",
  scale: "number",
  nps: "number",
  yes_no: "string",
  ranking: "list",
  matrix: "object",
  statement: "none",
};

/** Whether answers given to a field of type `from` are still answers of type `to`. */
export function answersFit(from: FieldType, to: FieldType): boolean {
  if (from === to) return true;
  if (to === "text" || to === "textarea") return VALUE[from] === "string";
  if (to === "number") return VALUE[from] === "number";
  if ((from === "radio" && to === "select") || (from === "select" && to === "radio")) return true;
  return from === "ranking" && to === "checkbox";
}

export const keysOf = (f: Field) => [f.id, ...(f.formerly ?? [])];
const options = (f: Field) => ("options" in f ? f.options : null);
const RULES = [
  "required",
  "show_if",
  "min",
  "max",
  "min_length",
  "max_length",
  "increment",
  "accept",
  "max_mb",
  "rows",
  "columns",
] as const;

function optionChanges(old: Field, next: Field): DraftChange[] {
  const before = options(old);
  const after = options(next);
  if (!before || !after) return [];
  const oldLabels = before.map(optionValue);
  const claimed = new Set<string>();
  const changes: DraftChange[] = [];
  const keys = keysOf(old);
  const list = old.type === "checkbox" || old.type === "ranking";
  for (const o of after) {
    const label = optionValue(o);
    if (oldLabels.includes(label)) {
      claimed.add(label);
      continue;
    }
    const from = optionFormerly(o).filter((l) => oldLabels.includes(l));
    for (const l of from) {
      claimed.add(l);
      changes.push({
        kind: "option_renamed",
        field: next.id,
        option: label,
        detail: `option ${next.id} "${l}" → "${label}" (formerly)`,
        count: { keys, value: l, list },
      });
    }
    if (from.length === 0)
      changes.push({
        kind: "option_added",
        field: next.id,
        option: label,
        detail: `option ${next.id} "${label}"`,
      });
  }
  for (const l of oldLabels.filter((x) => !claimed.has(x)))
    changes.push({
      kind: "option_removed",
      field: next.id,
      option: l,
      detail: `option ${next.id} "${l}"`,
      count: { keys, value: l, list },
      loses: true,
    });
  return changes;
}

export function fieldChanges(old: Field, next: Field): DraftChange[] {
  const changes: DraftChange[] = [];
  if (old.type !== next.type) {
    const fit = answersFit(old.type, next.type);
    changes.push({
      kind: "field_type_changed",
      field: next.id,
      detail: `field ${next.id}: ${old.type} → ${next.type}${fit ? "" : " (earlier answers do not fit)"}`,
      count: { keys: keysOf(old) },
      loses: !fit,
    });
  } else changes.push(...optionChanges(old, next));
  const rules =
    old.type !== next.type
      ? []
      : RULES.filter(
          (k) =>
            !deepEqual((old as Record<string, unknown>)[k], (next as Record<string, unknown>)[k]),
        );
  if (rules.length > 0) {
    const required =
      old.required !== next.required ? ` (${next.required ? "now required" : "now optional"})` : "";
    changes.push({
      kind: "rule_changed",
      field: next.id,
      detail: `rule ${next.id}: ${rules.join(", ")}${required}`,
      // a condition changed: the responses whose path it changes (SPEC §24)
      ...(rules.includes("show_if") ? { count: { keys: [], paths: true } } : {}),
    });
  }
  return changes;
}

/** What a field says, without what the plan reports on its own (type, options, rules, ids). */
export function wording(f: Field): Record<string, unknown> {
  const rest: Record<string, unknown> = { ...f };
  for (const k of [...RULES, "options", "type", "formerly", "id", "goto"]) delete rest[k];
  return rest;
}
