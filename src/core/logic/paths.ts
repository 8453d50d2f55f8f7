// Every distinct path through a form (SPEC §24, `formdown paths`): the pages shown and the ending
// reached, each with an example set of valid answers. Found by trying, field by field in order,
// the values the logic names (each option of a field that jumps or is compared, the numbers a
// condition compares with and either side of them, unanswered), and a plain valid answer for the
// rest. A search with a bound: `complete` says whether every combination was tried.
import type { Field } from "../field-schema.ts";
import { optionValue } from "../options.ts";
import { checkAnswer } from "../validate-answers.ts";
import { compile, type LogicForm } from "./compiled.ts";
import type { Condition } from "./condition.ts";
import { conditionRefs } from "./condition.ts";
import { exprRefs } from "./expr.ts";
import { walk } from "./walk.ts";

export interface FoundPath {
  /** The pages shown, by index. */
  pages: number[];
  ending: string;
  /** Answers that take this path (valid for the fields shown). */
  answers: Record<string, unknown>;
  /** Hidden values it needs, when the logic reads some. */
  hidden?: Record<string, string>;
}

export interface Paths {
  paths: FoundPath[];
  /** False when the search stopped at its bound before trying every combination. */
  complete: boolean;
}

/** Combinations tried at most (each a walk of the form). */
export const MAX_TRIES = 20_000;

/** A valid answer for any field (the plain one used where the logic does not look). */
export function sampleAnswer(f: Field): unknown {
  switch (f.type) {
    case "text":
    case "textarea":
      return "x".repeat(Math.max(1, f.min_length ?? 1));
    case "email":
      return "someone@example.com";
    case "number":
      return f.min ?? Math.min(1, f.max ?? 1);
    case "radio":
    case "select":
      return optionValue(f.options[0]!);
    case "checkbox":
      return [optionValue(f.options[0]!)];
    case "ranking":
      return f.options.map(optionValue);
    case "date":
      return f.min ?? f.max ?? "2026-01-01";
    case "image":
    case "file":
      return "https://example.com/file.pdf";
    case "rating":
      return 1;
    case "scale":
      return f.min;
    case "nps":
      return 5;
    case "yes_no":
      return "yes";
    case "matrix":
      return Object.fromEntries(f.rows.map((r) => [r.id, f.columns[0]!]));
    case "statement":
      return undefined;
  }
}

function conditions(form: LogicForm): Condition[] {
  return [
    ...form.fields.flatMap((f) => (f.show_if ? [f.show_if] : [])),
    ...(form.steps ?? []).map((s) => s.show_if),
    ...(form.endings ?? []).flatMap((e) => (e.show_if ? [e.show_if] : [])),
  ];
}

/** The values worth trying for a field the logic reads: those compared with, and around them. */
function candidates(f: Field, conds: Condition[], jumps: boolean, inVariables: boolean): unknown[] {
  const compared: unknown[] = [];
  const visit = (c: Condition) => {
    for (const x of c.all ?? c.any ?? (c.not ? [c.not] : [])) visit(x);
    if (c.field !== f.id || c.value === undefined) return;
    compared.push(c.value);
    if (typeof c.value === "number")
      compared.push(c.value - 1, c.value + 1, c.value - 0.5, c.value + 0.5);
  };
  for (const c of conds) visit(c);
  const out: unknown[] = [];
  if (!f.required) out.push(undefined);
  if ("options" in f && f.type !== "ranking" && (jumps || compared.length > 0))
    for (const o of f.options) out.push(f.type === "checkbox" ? [optionValue(o)] : optionValue(o));
  if (f.type === "yes_no") out.push("yes", "no");
  if (f.type === "checkbox") {
    for (const v of compared) if (typeof v === "string") out.push([v]);
  } else out.push(...compared);
  if (
    inVariables &&
    (f.type === "number" || f.type === "scale" || f.type === "rating" || f.type === "nps")
  )
    out.push(sampleAnswer(f), "max" in f && f.max !== undefined ? f.max : 1000);
  out.push(sampleAnswer(f));
  const valid = out.filter((v) => v === undefined || checkAnswer(f, v) === null);
  return [...new Map(valid.map((v) => [JSON.stringify(v) ?? "-", v])).values()];
}

export function findPaths(form: LogicForm, maxTries = MAX_TRIES): Paths {
  const conds = conditions(form);
  const read = new Set(conds.flatMap((c) => conditionRefs(c)));
  const inVariables = new Set<string>();
  for (const node of Object.values(compile(form).variables))
    for (const r of node ? exprRefs(node) : []) inVariables.add(r);
  for (const v of inVariables) read.add(v);
  const { jumps } = compile(form);
  const found = new Map<string, FoundPath>();
  let tries = 0;
  let complete = true;
  const answers: Record<string, unknown> = {};
  const hidden: Record<string, string> = {};
  // hidden values the logic reads: each value compared with, or none
  const names = [...read].filter((r) => r.startsWith("hidden.")).map((r) => r.slice(7));
  const hiddenValues = names.map((name) => {
    const values = new Set<string>();
    const visit = (c: Condition) => {
      for (const x of c.all ?? c.any ?? (c.not ? [c.not] : [])) visit(x);
      if (c.field === `hidden.${name}` && typeof c.value === "string") values.add(c.value);
    };
    for (const c of conds) visit(c);
    return [undefined, ...values];
  });
  const choose = (k: number): void => {
    if (k === names.length) {
      decide(0);
      return;
    }
    for (const v of hiddenValues[k]!) {
      if (v === undefined) delete hidden[names[k]!];
      else hidden[names[k]!] = v;
      choose(k + 1);
    }
    delete hidden[names[k]!];
  };
  const decide = (i: number): void => {
    if (tries >= maxTries) {
      complete = false;
      return;
    }
    if (i === form.fields.length) {
      tries++;
      const path = walk(form, answers, hidden);
      const key = `${path.pages.join(",")}>${path.ending}`;
      if (!found.has(key)) {
        const given = path.shown.flatMap((f) =>
          answers[f.id] === undefined ? [] : [[f.id, answers[f.id]]],
        );
        found.set(key, {
          pages: path.pages,
          ending: path.ending,
          answers: Object.fromEntries(given),
          ...(names.length > 0 ? { hidden: { ...hidden } } : {}),
        });
      }
      return;
    }
    const f = form.fields[i]!;
    const jump = jumps[i]!;
    const matters = read.has(f.id) || jump.options !== null;
    const shown = matters && walk(form, answers, hidden).shown.includes(f);
    const tried = shown
      ? candidates(f, conds, jump.options !== null, inVariables.has(f.id))
      : [sampleAnswer(f)];
    for (const value of tried) {
      if (value === undefined) delete answers[f.id];
      else answers[f.id] = value;
      decide(i + 1);
    }
    delete answers[f.id];
  };
  choose(0);
  return { paths: [...found.values()], complete };
}
