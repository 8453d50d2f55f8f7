import type { Form } from "../schema.ts";
import { deepEqual } from "../show-if.ts";
import { answersFit, fieldChanges, keysOf, wording } from "./field-changes.ts";
import { logicChanges } from "./logic.ts";
import { movedFields } from "./order.ts";
import type { Change, Plan } from "./plan-types.ts";

export type { Change, ChangeKind, Plan } from "./plan-types.ts";
export { answersFit };

/**
 * Which responses a change touches: those answering any of `keys` (the field's id and its
 * earlier ids), or, with `value`, those whose answer under one of them is or holds that option.
 */
export interface CountSpec {
  keys: string[];
  value?: string;
  /** The answers are lists (checkbox, ranking): the option is one of their items. */
  list?: boolean;
  /** With no keys: the responses older than this many days (a retention change, SPEC §25). */
  olderThanDays?: number;
  /** The responses whose path or values (ending, variables) the change would change (SPEC §24). */
  paths?: boolean;
}

/** A change before counting: what to count, and whether answers make it destructive. */
export interface DraftChange extends Omit<Change, "answers_affected"> {
  count?: CountSpec;
  /** Answers it touches would no longer be reachable under the new definition. */
  loses?: boolean;
}

function formChanges(old: Form, next: Form): DraftChange[] {
  const changes: DraftChange[] = [];
  if (old.slug !== next.slug)
    changes.push({ kind: "slug_changed", detail: `slug ${old.slug} → ${next.slug}` });
  const [a, b] = [old.access.mode, next.access.mode];
  if (a !== b) {
    if (b === "closed") changes.push({ kind: "closed", detail: "form closed (access: closed)" });
    else if (a === "closed")
      changes.push({ kind: "reopened", detail: `form reopened (access: ${b})` });
    else changes.push({ kind: "access_changed", detail: `access ${a} → ${b}` });
  }
  const settings = (["closes_at", "max_responses"] as const).filter(
    (k) => old.settings[k] !== next.settings[k],
  );
  if (settings.length > 0)
    changes.push({ kind: "rule_changed", detail: `rule form: ${settings.join(", ")}` });
  changes.push(...retentionChanges(old, next));
  changes.push(...logicChanges(old, next));
  // the logic's own keys are told above; an ending's wording or a variable's label is content
  const skip = new Set(["fields", "slug", "access", "steps"]);
  const logicOnly = (f: Form) => ({
    endings: (f.endings ?? []).map(({ show_if: _s, ...e }) => e),
    variables: (f.variables ?? []).map(({ value: _v, ...v }) => v),
  });
  if (deepEqual(logicOnly(old), logicOnly(next))) skip.add("endings").add("variables");
  const other = Object.keys({ ...old, ...next }).filter(
    (k) =>
      !skip.has(k) &&
      !deepEqual((old as Record<string, unknown>)[k], (next as Record<string, unknown>)[k]),
  );
  const fieldText = next.fields.some((f) => {
    const o = old.fields.find((x) => x.id === f.id);
    return o !== undefined && !deepEqual(wording(o), wording(f));
  });
  if (other.length > 0 || fieldText)
    changes.push({
      kind: "content_changed",
      detail: `content: ${[...other, ...(fieldText ? ["field text"] : [])].join(", ")}`,
    });
  return changes;
}

/**
 * `settings.retention_days` (SPEC §25): the responses its next daily run deletes are counted, and
 * a change that deletes any needs confirmation like every destructive change.
 */
function retentionChanges(old: Form, next: Form): DraftChange[] {
  const [a, b] = [old.settings.retention_days, next.settings.retention_days];
  if (a === b) return [];
  if (b === undefined)
    return [{ kind: "retention_changed", detail: `retention off (was ${a} days): answers kept` }];
  return [
    {
      kind: "retention_changed",
      detail: `retention ${a === undefined ? "" : `${a} → `}${b} days: the next daily run deletes responses older than ${b} days`,
      count: { keys: [], olderThanDays: b },
      loses: true,
    },
  ];
}

/** The changes from the live definition (null: none yet) to the new one, before counting. */
export function diffForms(old: Form | null, next: Form): DraftChange[] {
  if (!old)
    return [
      {
        kind: "form_created",
        detail: `form ${next.slug} (${next.fields.length} field${next.fields.length === 1 ? "" : "s"})`,
      },
    ];
  const changes: DraftChange[] = [];
  const oldById = new Map(old.fields.map((f) => [f.id, f]));
  const newIds = new Set(next.fields.map((f) => f.id));
  const claimed = new Set<string>();
  for (const f of next.fields) {
    const same = oldById.get(f.id);
    if (same) {
      claimed.add(f.id);
      changes.push(...fieldChanges(same, f));
      continue;
    }
    const from = (f.formerly ?? []).filter((id) => oldById.has(id) && !newIds.has(id));
    for (const id of from) {
      claimed.add(id);
      const was = oldById.get(id)!;
      changes.push({
        kind: "field_renamed",
        field: f.id,
        detail: `field ${id} → ${f.id} (formerly)`,
        count: { keys: keysOf(was) },
      });
      changes.push(...fieldChanges(was, f));
    }
    if (from.length === 0 && f.type !== "statement")
      changes.push({
        kind: "field_added",
        field: f.id,
        detail: `field ${f.id} (${f.type}, ${f.required ? "required" : "optional"})`,
      });
  }
  for (const f of old.fields.filter((x) => !claimed.has(x.id) && x.type !== "statement"))
    changes.push({
      kind: "field_removed",
      field: f.id,
      detail: `field ${f.id}`,
      count: { keys: keysOf(f) },
      loses: true,
    });
  return [...changes, ...movedFields(old.fields, next.fields), ...formChanges(old, next)];
}

const answers = (n: number) => `${n.toLocaleString("en-US")} answer${n === 1 ? "" : "s"}`;

/** The plan once the database has counted each change's answers (`counts[i]` for `draft[i]`). */
export function finishPlan(
  slug: string,
  fromVersion: number | null,
  draft: DraftChange[],
  counts: readonly number[],
): Plan {
  const changes: Change[] = draft.map(({ count: _, loses: __, ...c }, i) => ({
    ...c,
    answers_affected: counts[i] ?? 0,
  }));
  const lost = draft.filter((c, i) => c.loses && (counts[i] ?? 0) > 0);
  const destructive = lost.length > 0;
  const n = changes.length;
  let summary =
    n === 0
      ? "No changes."
      : // the version the change makes, from the live one (a deploy writes version + 1)
        `${n} change${n === 1 ? "" : "s"}${fromVersion === null ? "" : `: version ${fromVersion} → ${fromVersion + 1}`}.`;
  if (destructive) {
    const total = draft.reduce(
      (s, c, i) => s + (c.loses && c.kind !== "retention_changed" ? (counts[i] ?? 0) : 0),
      0,
    );
    if (total > 0)
      summary += ` Destructive: ${answers(total)} would no longer be reachable under the new definition (they stay stored); confirm the change (--confirm, confirm: true, ?confirm=true) or map them with formerly.`;
    const i = draft.findIndex((c) => c.kind === "retention_changed" && c.loses);
    if ((counts[i] ?? 0) > 0)
      summary += ` Destructive: the retention change deletes ${answers(counts[i]!)} (responses older than ${draft[i]!.count!.olderThanDays} days) at its next daily run; confirm the change (--confirm, confirm: true, ?confirm=true).`;
  }
  return { slug, from_version: fromVersion, changes, destructive, summary };
}

export { planLines } from "./lines.ts";
export { diffTranslations } from "./translations.ts";
