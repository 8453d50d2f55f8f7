// A form's logic made ready to walk (walk.ts), once per form object: each field's page, the
// pages' conditions, where each jump lands, the variables' parsed expressions and the endings in
// the order they are tried. Kept in a WeakMap, so 1,000 test cases parse the expressions once.
import type { Field } from "../field-schema.ts";
import { optionValue } from "../options.ts";
import { pageIndexes } from "../page-indexes.ts";
import type { Compiled, Target } from "./compiled-types.ts";
import type { Condition } from "./condition.ts";
import { parseExpr } from "./expr.ts";

export interface LogicForm {
  type: string;
  fields: readonly Field[];
  hidden?: readonly string[] | undefined;
  steps?: readonly { id: string | number; show_if: Condition }[] | undefined;
  variables?: readonly { id: string; value: string; label?: string | undefined }[] | undefined;
  endings?: readonly { id: string; show_if?: Condition | undefined }[] | undefined;
  quiz?:
    | { pass_percent?: number | undefined; pass_ending?: unknown; fail_ending?: unknown }
    | undefined;
}

export type { Compiled, Target } from "./compiled-types.ts";

/** Ids the quiz's pass and fail endings and the plain ending keep. */
export const DEFAULT_ENDING = "default";

/** The pages a step id names: its `step` value, or the id of the field that opens the page. */
export function stepPages(form: LogicForm, pages: readonly number[]): Map<string, number[]> {
  const byId = new Map<string, number[]>();
  const add = (key: string, page: number) => {
    const list = byId.get(key) ?? [];
    if (!list.includes(page)) list.push(page);
    byId.set(key, list);
  };
  form.fields.forEach((f, i) => {
    if (f.step !== undefined && form.type !== "survey") add(`step:${f.step}`, pages[i]!);
    if (i === 0 || pages[i - 1] !== pages[i]) add(`field:${f.id}`, pages[i]!);
  });
  return byId;
}

/** The pages a step id or goto names (step values first, then a field opening a page). */
export const pagesNamed = (byId: Map<string, number[]>, id: string | number) =>
  byId.get(`step:${id}`) ?? byId.get(`field:${id}`) ?? [];

/** The quiz's pass and fail endings as conditions on `score` (SPEC §24). */
export function quizEndings(form: LogicForm, max: number): { id: string; show_if: Condition }[] {
  const pass = form.quiz?.pass_percent;
  if (form.type !== "quiz" || pass === undefined) return [];
  const mark = (pass * max) / 100;
  return [
    ...(form.quiz?.pass_ending
      ? [{ id: "pass", show_if: { field: "score", op: "gte" as const, value: mark } }]
      : []),
    ...(form.quiz?.fail_ending
      ? [{ id: "fail", show_if: { field: "score", op: "lt" as const, value: mark } }]
      : []),
  ];
}

const cache = new WeakMap<object, Compiled>();

export function compile(form: LogicForm): Compiled {
  const hit = cache.get(form);
  if (hit) return hit;
  const pages = pageIndexes(form.type, form.fields);
  const byId = stepPages(form, pages);
  const endingIds = new Set((form.endings ?? []).map((e) => e.id));
  const target = (to: string | number | undefined, from: number): Target | null => {
    if (to === undefined) return null;
    if (typeof to === "string" && endingIds.has(to)) return { ending: to };
    const page = pagesNamed(byId, to).find((p) => p > from);
    return page === undefined ? null : { page };
  };
  const pageIf: Record<number, Condition> = {};
  for (const step of form.steps ?? [])
    for (const page of pagesNamed(byId, step.id))
      pageIf[page] = { all: [...(pageIf[page]?.all ?? []), step.show_if] };
  const jumps = form.fields.map((f, i) => {
    let options: [string, Target][] | null = null;
    for (const o of "options" in f ? f.options : []) {
      const t =
        typeof o === "string" ? null : target((o as { goto?: string | number }).goto, pages[i]!);
      if (!t) continue;
      options ??= [];
      options.push([optionValue(o), t]);
    }
    return { field: target(f.goto, pages[i]!), options };
  });
  const quizMax =
    form.type === "quiz"
      ? form.fields.reduce((n, f) => n + (f.answer === undefined ? 0 : f.points), 0)
      : 0;
  const compiled: Compiled = {
    pages,
    pageIf,
    jumps,
    variables: Object.fromEntries(
      (form.variables ?? []).map((v) => {
        const parsed = parseExpr(v.value);
        return [v.id, parsed.ok ? parsed.node : null];
      }),
    ),
    // a quiz's pass and fail endings before the one without a condition (always last)
    endings: [
      ...(form.endings ?? []).filter((e) => e.show_if),
      ...quizEndings(form, quizMax),
      ...(form.endings ?? []).filter((e) => !e.show_if),
    ],
  };
  cache.set(form, compiled);
  return compiled;
}
