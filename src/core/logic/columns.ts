// The logic's export columns (SPEC §24): the ending each response reached, and one column per
// variable, after the answers. Their values come from what the response recorded, never from
// its payload.
import type { Column } from "../csv.ts";
import type { LogicForm } from "./compiled.ts";
import { nameTable } from "./names.ts";
import { hasEndings } from "./respond.ts";

export function logicColumns(form: LogicForm & { hidden?: readonly string[] }): Column[] {
  const columns: Column[] = [];
  if (hasEndings(form))
    columns.push({
      header: "ending",
      label: "Ending",
      path: ["ending"],
      from: "ending",
      list: false,
      read: (_p, r) => r?.ending ?? undefined,
    });
  const names = nameTable({ ...form, hidden: form.hidden ?? [] }, []);
  for (const v of form.variables ?? []) {
    const named = names.get(v.id);
    columns.push({
      header: v.id,
      label: v.label ?? v.id,
      path: [v.id],
      from: "variables",
      list: false,
      // a variable's value is any JSON: written as its jsonb text's value (a number stays one)
      number: true,
      ...(named?.kind === "variable" && named.type === "list" ? { list: true, number: false } : {}),
      read: (_p, r) => r?.variables?.[v.id] ?? undefined,
    });
  }
  return columns;
}
