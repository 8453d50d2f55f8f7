import type { z } from "zod";
import type { Ending } from "./ending.ts";
import { nameTable } from "./logic/names.ts";
import { pageIndexes } from "./page-indexes.ts";
import { pipeRefs } from "./piping.ts";

interface PipingForm {
  type: "form" | "survey" | "quiz";
  hidden: string[];
  /** Fields the schema could not read take part by id only. */
  fields: readonly { id?: string | undefined; type?: string; step?: unknown }[];
  ending?: Ending | undefined;
  quiz?: { pass_percent?: number | undefined; pass_ending?: Ending; fail_ending?: Ending };
  endings?: readonly (Ending & { id: string })[] | undefined;
  variables?: readonly { id: string; value: string }[] | undefined;
}

type Ctx = Pick<z.core.$RefinementCtx, "addIssue">;
type Path = (string | number)[];

const FIELD_TEXTS = ["label", "description", "placeholder"] as const;
const ENDING_TEXTS = ["title", "body", "redirect_url"] as const;

/**
 * Every placeholder names something the page can fill in: a field on an earlier page (any field
 * for an ending), a declared hidden name, a score on a quiz's ending. Like show_if, a reference
 * forward is an error rather than a silently empty text; so is one to the same page, whose label
 * would show ", an welchem Tag kommst du?" until the name is typed.
 */
export function checkPiping(form: PipingForm, ctx: Ctx): void {
  const pages = pageIndexes(form.type, form.fields);
  form.fields.forEach((field, i) => {
    for (const key of FIELD_TEXTS) {
      const text = (field as Record<string, unknown>)[key];
      if (typeof text === "string") checkText(form, text, ["fields", i, key], i, ctx, pages);
    }
  });
  const endings: [Path, Ending | undefined][] = [
    [["ending"], form.ending],
    [["quiz", "pass_ending"], form.quiz?.pass_ending],
    [["quiz", "fail_ending"], form.quiz?.fail_ending],
    ...(form.endings ?? []).map((e, k): [Path, Ending] => [["endings", k], e]),
  ];
  for (const [at, ending] of endings) {
    if (!ending) continue;
    for (const key of ENDING_TEXTS) {
      const text = ending[key];
      if (text !== undefined) checkText(form, text, [...at, key], form.fields.length, ctx);
    }
  }
  for (const key of ["pass_ending", "fail_ending"] as const) {
    if (!form.quiz?.[key]) continue;
    if (form.type !== "quiz")
      issue(ctx, ["quiz", key], "only a quiz has pass and fail endings; use ending instead");
    else if (form.quiz.pass_percent === undefined)
      issue(ctx, ["quiz", key], "needs quiz.pass_percent to decide who passed");
  }
}

const issue = (ctx: Ctx, path: Path, message: string) =>
  ctx.addIssue({ code: "custom", path, message });

/** `before`: how many fields (from the start) the text may pipe; `pages`: for a field's own texts. */
function checkText(
  form: PipingForm,
  text: string,
  at: Path,
  before: number,
  ctx: Ctx,
  pages?: number[],
) {
  for (const ref of pipeRefs(text)) {
    if (ref.kind === "var") {
      checkVariable(form, ref.name, at, before, ctx, pages);
      continue;
    }
    if (ref.kind === "hidden") {
      if (!form.hidden.includes(ref.name))
        issue(ctx, at, `pipes {hidden:${ref.name}}, but "${ref.name}" is not listed in hidden`);
      continue;
    }
    if (ref.kind === "score" || ref.kind === "percent") {
      if (form.type !== "quiz" || at[0] === "fields")
        issue(ctx, at, `{${ref.kind}} is only known in a quiz's ending`);
      continue;
    }
    const target = form.fields.findIndex((f) => f.id === ref.name);
    if (target === -1)
      issue(ctx, at, `pipes {field:${ref.name}}, which is not a field of this form`);
    else if (target >= before)
      issue(
        ctx,
        at,
        target === before
          ? `pipes {field:${ref.name}}, its own answer`
          : `pipes {field:${ref.name}}, which comes later`,
      );
    else if (form.fields[target]!.type === "statement")
      issue(ctx, at, `pipes {field:${ref.name}}, a statement, which has no answer`);
    else if (pages && pages[target] === pages[before])
      issue(
        ctx,
        at,
        `pipes {field:${ref.name}}, which is on the same page: pipe only from an earlier page (give the fields different steps)`,
      );
  }
}

/** The names of a form, built once for all its `{var:…}` (one parse of each expression). */
const tableOf = new WeakMap<object, ReturnType<typeof nameTable>>();
function tables(form: PipingForm) {
  let table = tableOf.get(form);
  if (!table) {
    table = nameTable(form, []);
    tableOf.set(form, table);
  }
  return table;
}

/**
 * `{var:<id>}` names a variable; in a field's texts, one that reads no field of a later page
 * (a field on the same page is fine: the page fills it in as the respondent types, SPEC §24).
 */
function checkVariable(
  form: PipingForm,
  id: string,
  at: Path,
  before: number,
  ctx: Ctx,
  pages?: number[],
) {
  const named = tables(form).get(id);
  if (named?.kind !== "variable") {
    issue(ctx, at, `pipes {var:${id}}, which is not a variable of this form`);
    return;
  }
  if (!pages) return;
  const late = named.reads.find((i) => pages[i]! > pages[before]!);
  if (late !== undefined)
    issue(ctx, at, `pipes {var:${id}}, which reads "${form.fields[late]?.id}" on a later page`);
}
