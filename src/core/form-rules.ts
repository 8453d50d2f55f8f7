import type { z } from "zod";
import type { Ending } from "./ending.ts";
import { type Field, fieldSchema, optionValue } from "./field-schema.ts";
import { checkChoiceTotal, checkScaleBounds } from "./form-bounds.ts";
import type { Condition } from "./logic/condition.ts";
import { type LogicRuleForm, logicChecker } from "./logic/logic-rules.ts";
import { logicKeys } from "./logic/logic-schema.ts";
import { checkPiping } from "./piping-rules.ts";
import { quote } from "./quote.ts";
import { checkAnswer } from "./validate-answers.ts";

/** A field the schema could not read: it takes part in the rules only through its id. */
interface Unreadable {
  unreadable: true;
  id: string | undefined;
  step?: unknown;
}
type RuleField = Field | Unreadable;

export interface RuleForm {
  type: "form" | "survey" | "quiz";
  hidden: string[];
  fields: RuleField[];
  ending?: Ending | undefined;
  quiz?: { pass_percent?: number | undefined; pass_ending?: Ending; fail_ending?: Ending };
  /** Read for notifications.respondent.email_field, when the form sends respondents a copy. */
  notifications?: unknown;
  steps?: LogicRuleForm["steps"];
  endings?: (Ending & { id: string; show_if?: Condition | undefined })[] | undefined;
  variables?: LogicRuleForm["variables"];
}

type Ctx = Pick<z.core.$RefinementCtx, "addIssue">;

const readable = (f: RuleField | undefined): f is Field => !!f && !("unreadable" in f);

/**
 * What the rules can read of a definition that failed elsewhere, so one answer lists every
 * problem (a bad field type does not hide a show_if that points nowhere): fields that parse on
 * their own take part whole, the others only by id. Null when there are no fields to judge.
 */
export function ruleView(value: unknown): RuleForm | null {
  if (!value || typeof value !== "object") return null;
  const v = value as Record<string, unknown>;
  if (!Array.isArray(v.fields)) return null;
  return {
    type: v.type === "survey" || v.type === "quiz" ? v.type : "form",
    hidden: Array.isArray(v.hidden) ? v.hidden.filter((h) => typeof h === "string") : [],
    notifications: v.notifications,
    fields: v.fields.map((raw): RuleField => {
      const parsed = fieldSchema.safeParse(raw);
      if (parsed.success) return parsed.data;
      const { id, step } = (raw ?? {}) as { id?: unknown; step?: unknown };
      return { unreadable: true, id: typeof id === "string" ? id : undefined, step };
    }),
    ...readableLogic(v),
  };
}

/** The logic keys that parse on their own (the others' problems are reported already). */
function readableLogic(v: Record<string, unknown>): Partial<RuleForm> {
  const out: Partial<RuleForm> = {};
  for (const key of ["steps", "endings", "variables"] as const) {
    const parsed = logicKeys[key].safeParse(v[key]);
    if (parsed.success && parsed.data) (out as Record<string, unknown>)[key] = parsed.data;
  }
  return out;
}

const issue = (ctx: Ctx, path: (string | number)[], message: string) =>
  ctx.addIssue({ code: "custom", path, message });

/** The seed's form rules that span fields; per-field shapes are the schema's job. */
export function checkFormRules(form: RuleForm, ctx: Ctx): void {
  const logic = logicChecker(form, ctx);
  const seen = new Map<string, number>();
  form.fields.forEach((field, i) => {
    if (field.id === undefined) return;
    const first = seen.get(field.id);
    if (first !== undefined) {
      issue(ctx, ["fields", i, "id"], `${quote(field.id)} is already the id of fields[${first}]`);
    } else seen.set(field.id, i);
    if (!readable(field)) return;
    logic.field(i);
    checkField(form, field, i, ctx);
  });
  const names = new Set<string>();
  form.hidden.forEach((name, i) => {
    if (names.has(name)) issue(ctx, ["hidden", i], `${quote(name)} is listed twice`);
    names.add(name);
  });
  logic.rest();
  checkPiping(form, ctx);
  checkRespondentField(form, ctx);
  checkChoiceTotal(
    form.fields.map((f) => (readable(f) ? f : null)),
    ctx,
  );
}

function respondentField(notifications: unknown): string | undefined {
  const r = (notifications as { respondent?: { email_field?: unknown } } | null)?.respondent;
  return typeof r?.email_field === "string" ? r.email_field : undefined;
}

/** The confirmation goes only to an address answered in an email field of this form. */
function checkRespondentField(form: RuleForm, ctx: Ctx) {
  const id = respondentField(form.notifications);
  if (id === undefined) return;
  const at = ["notifications", "respondent", "email_field"];
  const field = form.fields.find((f) => f.id === id);
  if (!field) issue(ctx, at, `"${id}" is not a field of this form`);
  else if (readable(field) && field.type !== "email")
    issue(ctx, at, `"${id}" is a ${field.type} field; it must be an email field`);
}

/** The positions of values seen before in the list (linear: a list may hold 1,000). */
function repeats(values: readonly string[]): number[] {
  const seen = new Set<string>();
  const out: number[] = [];
  values.forEach((v, k) => {
    if (seen.has(v)) out.push(k);
    else seen.add(v);
  });
  return out;
}

function checkField(form: RuleForm, field: Field, i: number, ctx: Ctx) {
  const at = ["fields", i];
  if (form.type === "survey" && field.step !== undefined) {
    issue(
      ctx,
      [...at, "step"],
      "a survey shows one field at a time; remove step or use type: form",
    );
  }
  if (field.type === "statement") {
    if (field.required)
      issue(ctx, [...at, "required"], "a statement records no answer; use yes_no for consent");
    if (field.answer !== undefined) issue(ctx, [...at, "answer"], "a statement records no answer");
  }
  if ("options" in field) {
    const values = field.options.map(optionValue);
    for (const k of repeats(values))
      issue(ctx, [...at, "options", k], `${quote(values[k])} is listed twice`);
    if (field.type === "ranking" && values.length < 2) {
      issue(ctx, [...at, "options"], "a ranking needs at least two options");
    }
  }
  if (field.type === "matrix") {
    const ids = field.rows.map((r) => r.id);
    for (const k of repeats(ids))
      issue(ctx, [...at, "rows", k, "id"], `${quote(ids[k])} is already a row id of this field`);
    for (const k of repeats(field.columns))
      issue(ctx, [...at, "columns", k], `${quote(field.columns[k])} is listed twice`);
  }
  if (
    (field.type === "number" || field.type === "scale" || field.type === "date") &&
    field.min !== undefined
  ) {
    if (field.max !== undefined && field.min > field.max)
      issue(ctx, [...at, "max"], "must not be below min");
  }
  if ((field.type === "text" || field.type === "textarea") && field.min_length !== undefined) {
    if (field.min_length > field.max_length)
      issue(ctx, [...at, "max_length"], "must not be below min_length");
  }
  checkMedia(field, at, ctx);
  checkScaleBounds(field, at, ctx);
  checkAnswerKey(form, field, i, ctx);
}

function checkAnswerKey(form: RuleForm, field: Field, i: number, ctx: Ctx) {
  if (field.answer === undefined || field.type === "statement") return;
  const at = ["fields", i, "answer"];
  if (form.type !== "quiz")
    return issue(ctx, at, "answers are only scored when the form's type is quiz");
  const problem = checkAnswer(field, field.answer);
  if (problem) issue(ctx, at, `is not a valid answer for this field: ${problem}`);
}

const MEDIA_URL: Record<string, RegExp> = {
  youtube: /^(?:[A-Za-z0-9_-]{11}|https?:\/\/\S+)$/,
  video: /\.(?:mp4|webm)(?:[?#].*)?$/i,
  model3d: /\.(?:glb|gltf)(?:[?#].*)?$/i,
  image: /^(?:https?:\/\/|\/)\S+$/,
};
const MEDIA_HINT: Record<string, string> = {
  youtube: "a YouTube URL or an 11-character video id",
  video: "a direct .mp4 or .webm URL",
  model3d: "a .glb or .gltf URL",
  image: "a public http(s) URL",
};

function checkMedia(field: Field, at: (string | number)[], ctx: Ctx): void {
  const check = (media: { type: string; url: string } | undefined, path: (string | number)[]) => {
    if (media && !MEDIA_URL[media.type]!.test(media.url)) {
      issue(ctx, [...path, "media", "url"], `must be ${MEDIA_HINT[media.type]}`);
    }
  };
  check(field.media, at);
  if (field.type === "radio" || field.type === "checkbox") {
    field.options.forEach((o, k) => {
      if (typeof o !== "string") check(o.media, [...at, "options", k]);
    });
  }
}
