import type { CAC } from "cac";
import { planLines } from "../../src/core/plan/plan.ts";
import { api, enc } from "../lib/api.ts";
import { resolveSettings } from "../lib/config.ts";
import { json, out, say } from "../lib/output.ts";
import { planFiles, printPlans, validFiles } from "./plan.ts";

export function registerDeploy(cli: CAC): void {
  cli
    .command(
      "deploy [...files]",
      "Validate form files, then make each live (created or updated in place); default: forms/@*/*.md",
    )
    .option("--dry-run", "Validate and print the plan (as `formdown plan`); change nothing")
    .option(
      "--confirm",
      "Deploy even a change that leaves stored answers unreachable (they stay stored)",
    )
    .option("--json", "Machine-readable results")
    .example("formdown deploy forms/@me/*.md")
    .example("formdown deploy forms/@acme/signup.md --url https://forms.example.com --key $KEY")
    .action(
      async (
        files: string[],
        opts: { dryRun?: boolean; confirm?: boolean; json?: boolean; url?: string; key?: string },
      ) => {
        const settings = resolveSettings(opts);
        if (opts.dryRun) {
          const plans = await planFiles(settings, files);
          if (opts.json) json({ plans });
          else printPlans(plans);
          return say(`${plans.length} form file(s) valid (dry run: nothing deployed)`);
        }
        const texts = await validFiles(files);
        const results = [];
        for (const t of texts) {
          const confirm = opts.confirm ? "?confirm=true" : "";
          const done = await api(settings, "PUT", `/api/forms/${enc(t.slug)}${confirm}`, {
            markdown: t.text,
          });
          results.push({ file: t.file, ...done });
          if (opts.json) continue;
          out(`${done.result.padEnd(9)} ${t.slug}  ${done.url}`);
          if (done.plan) for (const line of planLines(done.plan)) out(`  ${line}`);
        }
        if (opts.json) json(results);
      },
    );
}
