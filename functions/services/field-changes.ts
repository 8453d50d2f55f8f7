// One field at a time (SPEC §18): change, remove or move a single field of a form. Each is a
// whole-definition change underneath, so it goes through replaceForm like every other one: the
// plan, its guard (SPEC §16) and the in-place file edit that keeps the change to one hunk (§15).
import { didYouMean } from "../../src/core/did-you-mean.ts";
import { AppError, type FieldIssue, raise } from "../../src/core/errors.ts";
import type { Field } from "../../src/core/field-schema.ts";
import type { Plan } from "../../src/core/plan/plan.ts";
import type { Form } from "../../src/core/schema.ts";
import { validateForm } from "../../src/core/validate-form.ts";
import type { AppContext } from "../context.ts";
import type { Account } from "./accounts.ts";
import { type FormRow, ownedForm } from "./form-view.ts";
import { replaceForm } from "./forms.ts";
import { planFor } from "./versions/guard.ts";

export interface FieldOptions {
  confirm?: boolean | undefined;
  /** Answer the plan and change nothing. */
  dryRun?: boolean | undefined;
}

/** What every field change answers: short, never the whole definition. */
export interface FieldAnswer {
  slug: string;
  /** The form's version after the change (the live one in a dry run). */
  version: number;
  /** The field as changed (as removed, for remove_field). */
  field: Field;
  plan: Plan;
}

/** The fields after the change, the field to answer, and where the edited field now is. */
interface Edited {
  fields: unknown[];
  field: unknown;
  /** Its index in `fields` when its own problems are spoken of as the caller's `changes`. */
  at?: number;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** The index of field `id`; an unknown id is not_found, naming the closest one and the rest. */
export function fieldIndex(form: Form, id: string, role = ""): number {
  const index = form.fields.findIndex((f) => f.id === id);
  if (index >= 0) return index;
  const ids = form.fields.map((f) => f.id);
  return raise(
    "not_found",
    `No field "${id}"${role} in form ${form.slug}${didYouMean(id, ids)}; its fields: ${ids.join(", ")}.`,
  );
}

/**
 * `changes` over a field: given keys replace, `null` removes a key (JSON merge patch). A new id
 * keeps the old answers: the old id goes into `formerly` unless the changes say otherwise.
 */
export function mergeField(field: Field, changes: Record<string, unknown>) {
  const next: Record<string, unknown> = { ...field };
  for (const [key, value] of Object.entries(changes))
    if (value === null) delete next[key];
    else next[key] = value;
  const renamed = typeof changes.id === "string" && changes.id !== field.id;
  if (renamed && !("formerly" in changes))
    next.formerly = [...new Set([...(field.formerly ?? []), field.id])];
  return next;
}

/**
 * A problem's path in the caller's words: the edited field's own keys under `changesPath`
 * (`changes.label`, or `label` for a REST body), any other field by index and id.
 */
function callerPath(path: string, fields: unknown[], at: number | undefined, changesPath: string) {
  const m = /^fields\[(\d+)\](.*)$/.exec(path);
  if (!m) return path;
  const index = Number(m[1]);
  const rest = m[2]!;
  if (index === at) {
    const key = rest.replace(/^\./, "");
    return changesPath && key ? `${changesPath}.${key}` : key || changesPath || "(body)";
  }
  const id = (fields[index] as { id?: unknown } | undefined)?.id;
  return typeof id === "string" ? `fields[${index}] (${id})${rest}` : path;
}

function checked(row: FormRow, edited: Edited, changesPath: string): Form {
  const result = validateForm({ ...row.definition, fields: edited.fields });
  if (result.ok) return result.value;
  const details: FieldIssue[] = (result.failure.details ?? []).map((d) => ({
    ...d,
    field: callerPath(d.field, edited.fields, edited.at, changesPath),
  }));
  const listed = details.map((d) => `${d.field}: ${d.message}`).join("; ");
  const noun = details.length === 1 ? "problem" : "problems";
  throw new AppError({
    code: "validation_failed",
    error: `The change has ${details.length} ${noun}: ${listed}.`,
    details,
  });
}

/** Plans and (unless a dry run) deploys one field's change through replaceForm's guard. */
async function changeField(
  ctx: AppContext,
  account: Account,
  slug: string,
  edit: (form: Form) => Edited,
  message: (form: Form) => string,
  options: FieldOptions & { changesPath?: string },
): Promise<FieldAnswer> {
  const row = await ownedForm(ctx, account, slug);
  const edited = edit(row.definition);
  const form = checked(row, edited, options.changesPath ?? "");
  const answer = (version: number, plan: Plan) => {
    const id = (edited.field as Field).id;
    const field = form.fields.find((f) => f.id === id) ?? (edited.field as Field);
    return { slug: row.slug, version, field, plan };
  };
  if (options.dryRun) return answer(row.version, await planFor(ctx, row, form));
  const done = await replaceForm(ctx, account, row, form, message(form), options);
  if (!done.changed) return answer(row.version, await planFor(ctx, row, form));
  return answer(row.version + 1, done.plan!);
}

/** update_field / PATCH /api/forms/{slug}/fields/{id}. */
export function updateField(
  ctx: AppContext,
  account: Account,
  slug: string,
  id: string,
  changes: unknown,
  options: FieldOptions & { changesPath?: string } = {},
) {
  const where = options.changesPath || "(body)";
  if (!isObj(changes) || Object.keys(changes).length === 0)
    raise("validation_failed", `${where} must name the keys to change, e.g. {"label": "New"}.`, {
      details: [{ field: where, message: 'expected an object of keys, e.g. {"label": "New"}' }],
    });
  return changeField(
    ctx,
    account,
    slug,
    (form) => {
      const at = fieldIndex(form, id);
      const field = mergeField(form.fields[at]!, changes as Record<string, unknown>);
      return { fields: form.fields.with(at, field as Field), field, at };
    },
    () => `Update field ${id} of ${slug}`,
    options,
  );
}

/** remove_field / DELETE /api/forms/{slug}/fields/{id}: its answers stay stored (retired). */
export function removeField(
  ctx: AppContext,
  account: Account,
  slug: string,
  id: string,
  options: FieldOptions = {},
) {
  return changeField(
    ctx,
    account,
    slug,
    (form) => {
      const at = fieldIndex(form, id);
      return { fields: form.fields.toSpliced(at, 1), field: form.fields[at] };
    },
    () => `Remove field ${id} from ${slug}`,
    options,
  );
}

/** move_field / POST /api/forms/{slug}/fields/{id}/move: exactly one of before, after. */
export function moveField(
  ctx: AppContext,
  account: Account,
  slug: string,
  id: string,
  to: { before?: string | undefined; after?: string | undefined },
  options: FieldOptions = {},
) {
  const given = (["before", "after"] as const).filter((k) => to[k] !== undefined);
  if (given.length !== 1)
    raise("validation_failed", "Give exactly one of before and after (a field id).", {
      details: [{ field: given.length ? "after" : "before", message: "give one of before, after" }],
    });
  const side = given[0]!;
  const target = to[side]!;
  if (target === id)
    raise("validation_failed", `A field cannot move ${side} itself.`, {
      details: [{ field: side, message: `is the field being moved (${id})` }],
    });
  return changeField(
    ctx,
    account,
    slug,
    (form) => {
      const field = form.fields[fieldIndex(form, id)]!;
      fieldIndex(form, target, ` (${side})`);
      const rest = form.fields.filter((f) => f.id !== id);
      const at = rest.findIndex((f) => f.id === target) + (side === "after" ? 1 : 0);
      return { fields: rest.toSpliced(at, 0, field), field };
    },
    () => `Move field ${id} of ${slug} ${side} ${target}`,
    options,
  );
}
