// The logic rules of a form (SPEC §24), each problem at its key's path (so at file:line in a
// form file): conditions on fields, pages and endings; variables; jumps; what no path reaches.
import type { z } from "zod";
import type { Field } from "../field-schema.ts";
import { pageIndexes } from "../page-indexes.ts";
import { pagesNamed, stepPages } from "./compiled.ts";
import type { Condition } from "./condition.ts";
import { conditionRefs } from "./condition.ts";
import { checkCondition, type Place } from "./condition-rules.ts";
import { checkFlow, type FlowField } from "./flow-rules.ts";
import { nameTable, type Problem } from "./names.ts";

export interface LogicRuleForm {
  type: "form" | "survey" | "quiz";
  hidden: string[];
  /** Readable fields whole; the others by what the raw value says (id, step). */
  fields: (Field | (FlowField & { unreadable: true }))[];
  steps?: { id: string | number; show_if: Condition }[] | undefined;
  endings?: { id: string; show_if?: Condition | undefined }[] | undefined;
  variables?: { id: string; value: string }[] | undefined;
  ending?: unknown;
  quiz?: { pass_ending?: unknown; fail_ending?: unknown } | undefined;
}

type Ctx = Pick<z.core.$RefinementCtx, "addIssue">;

const readable = (f: LogicRuleForm["fields"][number]): Field | null =>
  "unreadable" in f ? null : (f as Field);

/**
 * The logic rules, told in the form's order: the variables' problems at once, each field's
 * condition when `field(i)` is called (beside the field's other problems), the rest by `rest()`.
 */
export function logicChecker(form: LogicRuleForm, ctx: Ctx) {
  const problems: Problem[] = [];
  const flush = () => {
    for (const p of problems.splice(0))
      ctx.addIssue({ code: "custom", path: p.path, message: p.message });
  };
  const names = nameTable(form, problems);
  flush();
  const fields = form.fields.map(readable);
  const place = (before: number, self?: number): Place => ({ before, self, fields, names });
  const reads: string[] = [];
  return {
    field(i: number) {
      const rule = fields[i]?.show_if;
      if (!rule) return;
      checkCondition(rule, ["fields", i, "show_if"], place(i, i), problems);
      conditionRefs(rule, reads);
      flush();
    },
    rest() {
      const pages = pageIndexes(form.type, form.fields);
      const byId = stepPages(form as never, pages);
      (form.steps ?? []).forEach((s, k) => {
        const first = Math.min(...pagesNamed(byId, s.id).map((p) => pages.indexOf(p)));
        if (!Number.isFinite(first)) return; // not a page: checkFlow says so
        checkCondition(s.show_if, ["steps", k, "show_if"], place(first), problems);
        conditionRefs(s.show_if, reads);
      });
      (form.endings ?? []).forEach((e, k) => {
        if (!e.show_if) return;
        const at = ["endings", k, "show_if"];
        checkCondition(e.show_if, at, place(Number.POSITIVE_INFINITY), problems);
        conditionRefs(e.show_if, reads);
      });
      const quiz = form.quiz;
      if (
        form.type === "quiz" &&
        (reads.includes("score") || quiz?.pass_ending || quiz?.fail_ending)
      ) {
        const i = form.fields.findIndex((f) => f.id === "score");
        if (i >= 0)
          problems.push({
            path: ["fields", i, "id"],
            message:
              '"score" is the quiz\'s score, which its endings read; name the field otherwise',
          });
      }
      checkFlow({ ...form, pages }, problems);
      flush();
    },
  };
}
