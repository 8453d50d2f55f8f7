import type { ChangeKind, Plan } from "./plan.ts";

const answers = (n: number) => `${n.toLocaleString("en-US")} answer${n === 1 ? "" : "s"}`;

const SIGN: Record<ChangeKind, string> = {
  form_created: "+",
  field_added: "+",
  option_added: "+",
  field_removed: "-",
  option_removed: "-",
  form_removed: "-",
  closed: "-",
  field_renamed: "~",
  field_type_changed: "~",
  option_renamed: "~",
  rule_changed: "~",
  access_changed: "~",
  reopened: "+",
  slug_changed: "~",
  content_changed: "~",
  field_moved: "~",
  translation_added: "+",
  translation_changed: "~",
  translation_removed: "-",
  retention_changed: "-",
};

/** One line per change, as `formdown plan` prints it. */
export function planLines(plan: Plan): string[] {
  return plan.changes.map((c) => {
    const n = c.answers_affected;
    let tail = "";
    if (c.kind === "field_renamed" || c.kind === "option_renamed") tail = `: ${answers(n)} follow`;
    else if (c.kind === "field_removed" || c.kind === "option_removed")
      tail = `: ${answers(n)} retired`;
    else if (c.kind === "field_type_changed") tail = `: ${answers(n)} kept as given`;
    else if (c.kind === "retention_changed" && c.detail.includes("deletes"))
      tail = `: ${answers(n)} to delete`;
    // a condition, jump, ending or variable (SPEC §24): the responses it would take elsewhere
    else if (
      c.kind === "rule_changed" &&
      (c.detail.startsWith("logic:") || c.detail.includes("show_if"))
    )
      tail = `: ${n.toLocaleString("en-US")} response${n === 1 ? "" : "s"} would take another path or get other values`;
    return `${SIGN[c.kind]} ${c.detail}${tail}`;
  });
}
