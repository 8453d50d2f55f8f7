// The pull-request side of a plan (SPEC §16 "Pull requests"): `formdown plan --json` output turned
// into one Markdown comment, found again by a hidden marker so later pushes update it in place.

import type { Change, Plan } from "../../src/core/plan/plan-types.ts";

export const MARKER = "<!-- formdown:plan -->";
export const CONFIRM_LABEL = "formdown:confirm";

/** The plans of `{plans: [...]}` (or a bare plan, or a list), checked enough to render safely. */
export function readPlans(json: unknown): Plan[] {
  const list = Array.isArray(json)
    ? json
    : json && typeof json === "object" && "plans" in json
      ? (json as { plans: unknown }).plans
      : [json];
  if (!Array.isArray(list)) throw new Error("plans must be a list");
  return list.map((p, i) => {
    const plan = p as Partial<Plan> | null;
    if (!plan || typeof plan.slug !== "string" || !Array.isArray(plan.changes))
      throw new Error(`plan ${i + 1} has no slug or changes`);
    return {
      slug: plan.slug,
      from_version: typeof plan.from_version === "number" ? plan.from_version : null,
      changes: plan.changes,
      destructive: plan.destructive === true,
      summary: typeof plan.summary === "string" ? plan.summary : "",
    };
  });
}

/** A form's own text outside a code block: no HTML, no code spans, one line. */
const text = (value: unknown) =>
  String(value)
    .replace(/[<>&]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;" })[c]!)
    .replace(/`/g, "'")
    .replace(/\r?\n/g, " ");

/** Inside the diff block nothing is interpreted; a line always starts with its sign. */
const plain = (value: unknown) => String(value).replace(/\r?\n/g, " ");

const sign = (c: Change) =>
  /removed|retired|closed/.test(c.kind) ? "-" : /added|created|reopened/.test(c.kind) ? "+" : "~";

/** A form's logic tests as `formdown test --json` prints them (SPEC §24). */
export interface TestReport {
  file: string;
  errors: { file: string; line: number; message: string }[];
  results: {
    name: string;
    passed: boolean;
    file: string;
    line: number;
    failures: { path: string; expected: unknown; got: unknown }[];
  }[];
  passed: number;
  failed: number;
}

/** `formdown test --json` output, or none (an older CLI, a run that printed nothing). */
export function readTests(text: string): TestReport[] {
  try {
    const list = JSON.parse(text) as unknown;
    if (!Array.isArray(list)) return [];
    return list.filter(
      (r): r is TestReport =>
        !!r && typeof r.file === "string" && Array.isArray(r.results) && Array.isArray(r.errors),
    );
  } catch {
    return [];
  }
}

/** The logic tests' section: each form's count, and each failing case at file:line. */
function renderTests(reports: TestReport[]): string[] {
  if (reports.length === 0) return [];
  const lines = ["### Logic tests", ""];
  for (const r of reports) {
    const total = r.results.length;
    const ok = r.failed === 0 && r.errors.length === 0;
    lines.push(`${ok ? "✅" : "❌"} ${text(r.file)}: ${r.passed} of ${total} cases pass`);
    const bad = [
      ...r.errors.map((e) => `${e.file}:${e.line}: ${e.message}`),
      ...r.results.flatMap((c) =>
        c.failures.map(
          (f) =>
            `${c.file}:${c.line}: ${c.name}: ${f.path}: expected ${JSON.stringify(f.expected)}, got ${JSON.stringify(f.got)}`,
        ),
      ),
    ];
    if (bad.length > 0)
      lines.push("", "```diff", ...bad.slice(0, 50).map((b) => `- ${plain(b)}`), "```");
    lines.push("");
  }
  return lines;
}

/** The comment (and job summary) body; `confirmed`: the pull request carries the label. */
export function renderPlans(plans: Plan[], confirmed: boolean, tests: TestReport[] = []): string {
  const destructive = plans.some((p) => p.destructive);
  const lines = [MARKER, "## Formdown plan", ""];
  if (plans.length === 0) lines.push("No form changes in this pull request.");
  for (const p of plans) {
    const from = p.from_version === null ? "new form" : `from version ${p.from_version}`;
    lines.push(`### ${text(p.slug)} (${from})${p.destructive ? " ⚠️ destructive" : ""}`, "");
    if (p.changes.length === 0) lines.push("No changes.");
    else {
      lines.push("```diff");
      for (const c of p.changes) {
        const what = [c.field, c.option].filter(Boolean).map(plain).join(" / ");
        const answers = c.answers_affected > 0 ? ` (${c.answers_affected} answers)` : "";
        lines.push(
          `${sign(c)} ${plain(c.kind)}${what ? ` ${what}` : ""}: ${plain(c.detail)}${answers}`,
        );
      }
      lines.push("```");
    }
    if (p.summary) lines.push("", text(p.summary));
    lines.push("");
  }
  lines.push(...renderTests(tests));
  if (destructive)
    lines.push(
      confirmed
        ? `**Destructive changes confirmed** by the label \`${CONFIRM_LABEL}\`: stored answers are kept but some will no longer be shown under a live field.`
        : `**This plan is destructive**: stored answers would become unreachable. Map them with \`formerly\`, or add the label \`${CONFIRM_LABEL}\` to this pull request to go ahead.`,
    );
  return `${lines.join("\n").trimEnd()}\n`;
}
