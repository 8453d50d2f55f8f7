import { raise } from "../../../src/core/errors.ts";
import {
  diffForms,
  diffTranslations,
  finishPlan,
  type Plan,
  planLines,
} from "../../../src/core/plan/plan.ts";
import type { Form } from "../../../src/core/schema.ts";
import type { Translations } from "../../../src/core/translation.ts";
import type { AppContext } from "../../context.ts";
import { type KeyGrant, needScope } from "../../scopes.ts";
import type { FormRow } from "../form-view.ts";
import { countChanges } from "./count.ts";

type Live = Pick<FormRow, "id" | "slug" | "version" | "definition"> &
  Partial<Pick<FormRow, "translations">>;

/**
 * The plan from the live definition (`row`; null: the form does not exist yet) to `next`, with
 * the translations the request carries (undefined: none, the stored ones are kept; SPEC §20).
 */
export async function planFor(
  ctx: AppContext,
  row: Live | null,
  next: Form,
  translations?: Translations,
): Promise<Plan> {
  const draft = [
    ...diffForms(row?.definition ?? null, next),
    ...diffTranslations(
      row && { definition: row.definition, translations: row.translations },
      next,
      translations,
    ),
  ];
  const counts = row
    ? await countChanges(
        ctx,
        row.id,
        draft.map((c) => c.count),
        { old: row.definition, next },
      )
    : draft.map(() => 0);
  return finishPlan(next.slug, row?.version ?? null, draft, counts);
}

/**
 * Nothing silently disappears (SPEC §16): a change that would leave stored answers unreachable
 * is refused unless confirmed. The answers stay stored either way; this only makes the author say so.
 */
export function guardPlan(plan: Plan, confirm: boolean | undefined, grant: KeyGrant): void {
  if (!plan.destructive) return;
  const lines = planLines(plan);
  // a retention change deletes answers (SPEC §25): said as such
  const retention = plan.changes.findIndex(
    (c) => c.kind === "retention_changed" && c.answers_affected > 0,
  );
  // deleting answers is the admin's (SPEC §23), confirmed through a retention change too
  if (confirm && retention >= 0)
    needScope(
      grant,
      "admin",
      `Confirming a change that deletes stored answers (${lines[retention]})`,
    );
  if (confirm) return;
  const lost = lines.filter((_, i) => {
    const k = plan.changes[i]!.kind;
    return k === "field_removed" || k === "option_removed" || k === "field_type_changed";
  });
  if (retention >= 0 && lost.length === 0)
    raise(
      "plan_needs_confirmation",
      `Deploying ${plan.slug} would delete stored answers (${lines[retention]}). Confirm it (formdown deploy --confirm, confirm: true, ?confirm=true).`,
      { plan },
    );
  raise(
    "plan_needs_confirmation",
    `Deploying ${plan.slug} would leave stored answers unreachable (${lost.join("; ")}${retention >= 0 ? `; and delete: ${lines[retention]}` : ""}). Confirm it (formdown deploy --confirm, confirm: true, ?confirm=true) or map them with formerly${retention >= 0 ? "" : "; answers are never deleted"}.`,
    { plan },
  );
}
