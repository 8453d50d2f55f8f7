import { dirname } from "node:path";
import type { CAC } from "cac";
import { formatFormFileError } from "../../src/core/form-file-error.ts";
import { type Plan, planLines } from "../../src/core/plan/plan.ts";
import { api, CliError } from "../lib/api.ts";
import type { CheckedFile } from "../lib/check-files.ts";
import type { Settings } from "../lib/config.ts";
import { resolveSettings } from "../lib/config.ts";
import { json, out } from "../lib/output.ts";

export interface ValidFile {
  file: string;
  text: string;
  slug: string;
  /** The form's translation files beside it: language → `{content}` (what deploy sends). */
  translations: Record<string, { content: string }>;
}

/** The valid form files named (default: every `forms/@*\/*.md`); any invalid one stops it all. */
export async function validFiles(files: string[]) {
  // loaded here, not with the CLI: the parser and the schema are most of a command's start
  const [{ checkFiles, formFiles }, { translationName }] = await Promise.all([
    import("../lib/check-files.ts"),
    import("../../src/core/translation-file.ts"),
  ]);
  const texts: ValidFile[] = [];
  const translated: CheckedFile[] = [];
  let invalid = 0;
  for (const c of await checkFiles(files.length > 0 ? files : await formFiles())) {
    // a valid translation file goes with its form (SPEC §20)
    if (c.kind === "translation" && c.errors.length === 0) translated.push(c);
    else if (c.errors.length > 0 || !c.form) {
      invalid++;
      for (const e of c.errors) out(formatFormFileError(e));
    } else texts.push({ file: c.file, text: c.text, slug: c.form.slug, translations: {} });
  }
  for (const t of translated) {
    const name = translationName(t.file)!;
    const form = texts.find((f) => dirname(f.file) === dirname(t.file) && f.slug === name.slug);
    if (form) form.translations[name.lang] = { content: t.text };
  }
  if (invalid > 0)
    throw new CliError(
      `${invalid} form file(s) are not valid; nothing was deployed`,
      "validation_failed",
    );
  return texts;
}

/** Each file's plan, from the server (which counts the stored answers each change touches). */
async function planFiles(settings: Settings, files: string[]) {
  const plans: Plan[] = [];
  // with its translation files, as deploy sends them: the plan lists their changes (SPEC §20)
  for (const t of await validFiles(files))
    plans.push(
      await api(settings, "POST /api/forms/:slug/plan", {
        slug: t.slug,
        body: { content: t.text, translations: t.translations },
      }),
    );
  return plans;
}

/** `~ field fix → fix_first (formerly): 8 answers follow`, one line per change, per form. */
function printPlans(plans: Plan[]): void {
  for (const plan of plans) {
    const from = plan.from_version === null ? "new" : `from version ${plan.from_version}`;
    out(`${plan.slug} (${from})`);
    const lines = planLines(plan);
    for (const line of lines.length > 0 ? lines : ["  no changes"]) out(`  ${line}`);
    out(`  ${plan.summary}`);
  }
}

export function registerPlan(cli: CAC): void {
  cli
    .command(
      "plan [...files]",
      "Show what deploying form files would change and how many stored answers each change touches; changes nothing",
    )
    .option("--json", 'Print {"plans": [...]}')
    .example("formdown plan forms/@me/q4-product-pulse.md")
    .example("formdown plan --json > plan.json")
    .action(async (files: string[], opts: { json?: boolean; url?: string; key?: string }) => {
      const plans = await planFiles(resolveSettings(opts), files);
      if (opts.json) json({ plans });
      else printPlans(plans);
    });
}
