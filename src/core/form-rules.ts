import type { z } from "zod";
import type { Ending } from "./ending.ts";
import { assertNever } from "./errors.ts";
import {
  type Field,
  type FieldType,
  fieldSchema,
  optionValue,
  type ShowIfOp,
} from "./field-schema.ts";
import { checkChoiceTotal, checkScaleBounds } from "./form-bounds.ts";
import { checkPiping } from "./piping-rules.ts";
import { clipList, quote } from "./quote.ts";
import { checkAnswer } from "./validate-answers.ts";

/** The types each show_if operator may compare (seed: conditional display). */
const OP_TYPES: Record<ShowIfOp, readonly FieldType[] | "any"> = {
  eq: "any",
  neq: "any",
  gt: ["number", "rating", "scale", "nps"],
  lt: ["number", "rating", "scale", "nps"],
  gte: ["number", "rating", "scale", "nps"],
  lte: ["number", "rating", "scale", "nps"],
  includes: ["checkbox", "ranking"],
  excludes: ["checkbox", "ranking"],
};

/** A field the schema could not read: it takes part in the rules only through its id. */
interface Unreadable {
  unreadable: true;
  id: string | undefined;
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
      const id = (raw as { id?: unknown } | null)?.id;
      return { unreadable: true, id: typeof id === "string" ? id : undefined };
    }),
  };
}

const issue = (ctx: Ctx, path: (string | number)[], message: string) =>
  ctx.addIssue({ code: "custom", path, message });

/** The seed's form rules that span fields; per-field shapes are the schema's job. */
export function checkFormRules(form: RuleForm, ctx: Ctx): void {
  const seen = new Map<string, number>();
  form.fields.forEach((field, i) => {
    if (field.id === undefined) return;
    const first = seen.get(field.id);
    if (first !== undefined) {
      issue(ctx, ["fields", i, "id"], `${quote(field.id)} is already the id of fields[${first}]`);
    } else seen.set(field.id, i);
    if (!readable(field)) return;
    checkShowIf(form.fields, i, ctx);
    checkField(form, field, i, ctx);
  });
  const names = new Set<string>();
  form.hidden.forEach((name, i) => {
    if (names.has(name)) issue(ctx, ["hidden", i], `${quote(name)} is listed twice`);
    names.add(name);
  });
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

function checkShowIf(fields: RuleField[], i: number, ctx: Ctx) {
  const own = fields[i];
  const rule = readable(own) ? own.show_if : undefined;
  if (!rule) return;
  const at = ["fields", i, "show_if"];
  const target = fields.findIndex((f) => f.id === rule.field);
  if (target === -1) {
    return issue(
      ctx,
      [...at, "field"],
      `refers to ${quote(rule.field)}, which is not a field of this form`,
    );
  }
  if (target === i) return issue(ctx, [...at, "field"], "a field cannot depend on itself");
  if (target > i) {
    return issue(ctx, [...at, "field"], `refers to ${quote(rule.field)}, which comes later`);
  }
  const referenced = fields[target];
  // the schema has already reported what is wrong with the referenced field
  if (!readable(referenced)) return;
  const type = referenced.type;
  if (type === "statement") {
    return issue(
      ctx,
      [...at, "field"],
      `refers to ${quote(rule.field)}, a statement, which has no answer`,
    );
  }
  const allowed = OP_TYPES[rule.op];
  if (allowed !== "any" && !allowed.includes(type)) {
    return issue(
      ctx,
      [...at, "op"],
      `"${rule.op}" works on ${allowed.join(", ")} fields, not on ${type}`,
    );
  }
  const problem = unreachableValue(referenced, rule.op, rule.value);
  if (problem) {
    issue(
      ctx,
      [...at, "value"],
      `${quote(rule.value)} can never be an answer of ${quote(rule.field)} (${type}): ${problem}`,
    );
  }
}

/**
 * Why no answer of `target` can ever meet a rule's value, or null. The page would judge such a
 * rule false forever and drop the dependent answer without a word, so it is an author's error:
 * `true` for a yes_no (which answers "yes"/"no"), an option that is not among the options, text
 * for a number.
 */
function unreachableValue(target: Field, op: ShowIfOp, value: unknown): string | null {
  switch (op) {
    case "eq":
    case "neq":
      return checkAnswer(target, value);
    case "gt":
    case "lt":
    case "gte":
    case "lte":
      return typeof value === "number" && Number.isFinite(value) ? null : "must be a number";
    case "includes":
    case "excludes": {
      const options = "options" in target ? target.options.map(optionValue) : [];
      return typeof value === "string" && options.includes(value)
        ? null
        : `must be one of: ${clipList(options)}`;
    }
    default:
      return assertNever(op);
  }
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
