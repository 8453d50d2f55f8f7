// What a name in a condition or an expression refers to (SPEC §24): a field, a variable, a hidden
// value or a quiz's score; with its type and the fields it reads. The variables are checked here
// as the table is built: each parses, names only what exists, makes no cycle and has one type.
import type { FieldType } from "../field-schema.ts";
import { quote } from "../quote.ts";
import { exprRefs, type Node, parseExpr } from "./expr.ts";
import { type TypeProblem, typeOfExpr, type ValueType } from "./expr-types.ts";

/** The type of each field's answer in conditions and expressions (a statement has none). */
export const ANSWER_TYPE: Record<FieldType, ValueType | null> = {
  text: "text",
  email: "text",
  textarea: "text",
  number: "number",
  radio: "text",
  checkbox: "list",
  select: "text",
  date: "text",
  image: "text",
  file: "text",
  rating: "number",
  scale: "number",
  nps: "number",
  yes_no: "text",
  ranking: "list",
  matrix: "matrix",
  statement: null,
};

export type Named =
  | { kind: "field"; index: number; type: FieldType | null }
  | { kind: "variable"; index: number; type: ValueType | null; reads: number[] }
  | { kind: "hidden" }
  | { kind: "score" };

export interface NameForm {
  type: string;
  hidden: readonly string[];
  /** Unreadable fields take part by id only (type null). */
  fields: readonly { id?: string | undefined; type?: string | undefined }[];
  variables?: readonly { id: string; value: string }[] | undefined;
}

export type Problem = { path: (string | number)[]; message: string };

export interface Names {
  get(name: string): Named | undefined;
  /** The phrase for a name that is nothing here. */
  unknown(name: string): string;
}

const FIELD_TYPES = new Set(Object.keys(ANSWER_TYPE));

/** The names of a form; the variables' problems are pushed to `problems`. */
export function nameTable(form: NameForm, problems: Problem[]): Names {
  const table = new Map<string, Named>();
  form.fields.forEach((f, index) => {
    if (f.id !== undefined && !table.has(f.id)) {
      const type = f.type !== undefined && FIELD_TYPES.has(f.type) ? (f.type as FieldType) : null;
      table.set(f.id, { kind: "field", index, type });
    }
  });
  const declared = form.variables ?? [];
  const hasVariables = declared.length > 0;
  const unknown = (name: string) =>
    name.startsWith("hidden.")
      ? `${name}, but ${quote(name.slice(7))} is not listed in hidden`
      : `${quote(name)}, which is not a field${hasVariables ? " or variable" : ""} of this form`;
  const nodes = new Map<string, Node>();
  declared.forEach((v, k) => {
    const at = ["variables", k];
    if (table.has(v.id)) {
      const was = table.get(v.id)!;
      problems.push({
        path: [...at, "id"],
        message: `${quote(v.id)} is already the id of ${was.kind === "field" ? `fields[${was.index}]` : "a variable"}`,
      });
      return;
    }
    if (v.id === "score" && form.type === "quiz") {
      problems.push({
        path: [...at, "id"],
        message: '"score" is the quiz\'s score; name it otherwise',
      });
      return;
    }
    table.set(v.id, { kind: "variable", index: k, type: null, reads: [] });
    const parsed = parseExpr(v.value);
    if (parsed.ok) nodes.set(v.id, parsed.node);
    else
      problems.push({
        path: [...at, "value"],
        message: `column ${parsed.error.at + 1}: ${parsed.error.message}`,
      });
  });
  for (const name of form.hidden) table.set(`hidden.${name}`, { kind: "hidden" });
  if (form.type === "quiz") table.set("score", { kind: "score" });
  // in dependency order: a variable's type and fields are known once those it reads are
  const state = new Map<string, "doing" | "done">();
  const resolve = (id: string, trail: string[]): void => {
    const named = table.get(id);
    if (named?.kind !== "variable" || state.get(id) === "done") return;
    const at = ["variables", named.index, "value"];
    if (state.get(id) === "doing") {
      const cycle = [...trail.slice(trail.indexOf(id)), id].join(" → ");
      problems.push({ path: at, message: `variables read each other in a cycle: ${cycle}` });
      return;
    }
    state.set(id, "doing");
    const node = nodes.get(id);
    const reads = new Set<number>();
    const problemsHere: TypeProblem[] = [];
    for (const ref of node ? exprRefs(node) : []) {
      resolve(ref, [...trail, id]);
      const target = table.get(ref);
      if (target?.kind === "field") reads.add(target.index);
      if (target?.kind === "variable") for (const r of target.reads) reads.add(r);
    }
    if (node && !problems.some((p) => p.path.join() === at.join())) {
      const type = typeOfExpr(node, (ref) => nameType(table, ref, unknown), problemsHere);
      named.type = type;
      // "" stands for a problem reported where it lies (a variable read in a cycle, or broken)
      for (const p of problemsHere.slice(0, 1).filter((p) => p.message !== ""))
        problems.push({ path: at, message: `column ${p.at + 1}: ${p.message}` });
    }
    named.reads = [...reads].sort((a, b) => a - b);
    state.set(id, "done");
  };
  for (const v of declared) resolve(v.id, []);
  return { get: (name) => table.get(name), unknown };
}

/** The type of a name inside an expression, or why it cannot be read there. */
function nameType(
  table: Map<string, Named>,
  name: string,
  unknown: (name: string) => string,
): ValueType | { problem: string } {
  const named = table.get(name);
  if (!named) return { problem: `reads ${unknown(name)}` };
  switch (named.kind) {
    case "hidden":
      return "text";
    case "score":
      return { problem: "score is known after submitting: read it in an ending's show_if" };
    case "field":
      if (named.type === "statement")
        return { problem: `${quote(name)} is a statement, which has no answer` };
      return named.type === null ? "text" : ANSWER_TYPE[named.type]!;
    case "variable":
      return named.type ?? { problem: "" };
  }
}
