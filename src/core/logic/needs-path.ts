// Whether a submit must walk the form's logic (SPEC §24) to know what to store and which ending
// to name: any logic beyond plain `show_if` rules on fields, or a quiz's pass and fail endings.
// Kept free of the logic modules it stands in front of, so a form without logic never loads
// them: a cold start (the edge function, test/gitops/serverless.test.ts) stays small.
import type { Field } from "../field-schema.ts";

interface PathForm {
  type: string;
  fields: readonly Field[];
  steps?: readonly unknown[] | undefined;
  variables?: readonly unknown[] | undefined;
  endings?: readonly unknown[] | undefined;
  quiz?: { pass_ending?: unknown; fail_ending?: unknown } | undefined;
}

const PLAIN_OPS = ["eq", "neq", "gt", "lt", "gte", "lte", "includes", "excludes"];

const plain = (rule: Field["show_if"]) =>
  !rule ||
  (typeof rule.field === "string" &&
    !rule.field.includes(".") &&
    PLAIN_OPS.includes(rule.op ?? ""));

const jumps = (f: Field) =>
  f.goto !== undefined ||
  ("options" in f &&
    f.options.some((o) => typeof o !== "string" && "goto" in o && o.goto !== undefined));

export function needsPath(form: PathForm): boolean {
  return (
    (form.steps?.length ?? 0) > 0 ||
    (form.variables?.length ?? 0) > 0 ||
    (form.endings?.length ?? 0) > 0 ||
    (form.type === "quiz" && !!(form.quiz?.pass_ending || form.quiz?.fail_ending)) ||
    form.fields.some((f) => jumps(f) || !plain(f.show_if))
  );
}
