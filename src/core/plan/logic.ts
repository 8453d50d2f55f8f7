// Logic changes in a plan (SPEC §24): a change of a condition, a jump, an ending's condition or a
// variable is a `rule_changed` that names what changed, counted as the stored responses whose path
// or values it would change: each response walked under the live definition and the new one,
// and counted when the fields shown, the ending reached or a variable's value differ.
import type { LogicForm } from "../logic/compiled.ts";
import { storedPath } from "../logic/respond.ts";
import type { Form } from "../schema.ts";
import { deepEqual } from "../show-if.ts";
import type { DraftChange } from "./plan.ts";

const jumps = (f: Form["fields"][number]) => ({
  goto: f.goto,
  options:
    "options" in f ? f.options.map((o) => (typeof o === "string" ? null : (o.goto ?? null))) : null,
});

/** The parts of the logic that changed (jumps, page conditions, endings, variables), or none. */
export function logicChanges(old: Form, next: Form): DraftChange[] {
  const parts: string[] = [];
  const moved = next.fields
    .filter((f) => {
      const o = old.fields.find((x) => x.id === f.id);
      return o !== undefined && !deepEqual(jumps(o), jumps(f));
    })
    .map((f) => f.id);
  if (moved.length > 0) parts.push(`jumps (${moved.join(", ")})`);
  if (!deepEqual(old.steps ?? [], next.steps ?? [])) parts.push("page conditions");
  const conditions = (f: Form) => (f.endings ?? []).map((e) => [e.id, e.show_if ?? null]);
  if (!deepEqual(conditions(old), conditions(next))) parts.push("endings");
  const formulas = (f: Form) => (f.variables ?? []).map((v) => [v.id, v.value]);
  if (!deepEqual(formulas(old), formulas(next))) parts.push("variables");
  if (parts.length === 0) return [];
  return [
    {
      kind: "rule_changed",
      detail: `logic: ${parts.join(", ")}`,
      count: { keys: [], paths: true },
    },
  ];
}

/** Whether a stored response would take another path, or get other values, under `next`. */
export function pathChanges(old: LogicForm, next: LogicForm, payload: Record<string, unknown>) {
  const a = storedPath(old, payload);
  const b = storedPath(next, payload);
  return (
    a.ending !== b.ending ||
    !deepEqual(a.variables, b.variables) ||
    a.shown.length !== b.shown.length ||
    a.shown.some((f, i) => f.id !== b.shown[i]!.id)
  );
}
