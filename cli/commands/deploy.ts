import type { CAC } from "cac";
import { planLines } from "../../src/core/plan/plan.ts";
import { api, CliError, enc } from "../lib/api.ts";
import { resolveSettings } from "../lib/config.ts";
import type { FormChanges } from "../lib/git-changes.ts";
import { json, out, say } from "../lib/output.ts";
import { isZeroCommit, rawOption } from "../lib/raw-option.ts";
import { smokeCheck } from "../lib/smoke.ts";
import { planFiles, printPlans, validFiles } from "./plan.ts";

type Options = {
  dryRun?: boolean;
  confirm?: boolean;
  json?: boolean;
  url?: string;
  key?: string;
  since?: string[];
  check?: boolean;
};

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
    .option(
      "--check",
      "Then check /api/health and each deployed form's page; exit 1 naming a failure",
    )
    .option(
      "--since <ref>",
      "Deploy what git says changed since this commit: renamed files keep their form (the old URL redirects), removed files close theirs",
      // a commit id of digits alone must stay text, not become a number
      { type: [String] },
    )
    .example("formdown deploy forms/@me/*.md")
    .example("formdown deploy --since origin/main~1 --check")
    .example("formdown deploy forms/@acme/signup.md --url https://forms.example.com --key $KEY")
    .action(async (files: string[], opts: Options) => {
      const settings = resolveSettings(opts);
      // as typed: the parser has made a number of a commit id of digits (the all-zeros one)
      const since = opts.since?.length
        ? (rawOption(process.argv, "--since") ?? String(opts.since.at(-1)))
        : undefined;
      // a first push (no previous commit): every file, as without --since
      const first = since !== undefined && isZeroCommit(since);
      const changes: FormChanges | null =
        since && !first ? (await import("../lib/git-changes.ts")).formChanges(since) : null;
      if (first) say("a first push (no previous commit): deploying every file");
      else if (since && !changes) say(`${since} is not a commit here: deploying every file`);
      const renamed = new Map(
        (changes?.deploy ?? []).flatMap((d) => (d.renamedFrom ? [[d.file, d.renamedFrom]] : [])),
      );
      // with --since: exactly what git says changed (possibly nothing); else the files named or all
      const chosen = changes ? changes.deploy.map((d) => d.file) : files;
      const nothing = changes !== null && chosen.length === 0;
      const removed = changes?.removed ?? [];
      if (opts.dryRun) {
        const plans = nothing ? [] : await planFiles(settings, chosen);
        if (opts.json) json({ plans });
        else printPlans(plans);
        return say(
          `${plans.length} form file(s) valid, ${removed.length} removed (dry run: nothing deployed)`,
        );
      }
      // the same checks as `formdown validate`: a slug that differs from its file name would
      // otherwise be deployed under another name and leave the file behind
      const texts = nothing ? [] : await validFiles(chosen);
      const confirm = opts.confirm ? "?confirm=true" : "";
      const results = [];
      /** The public pages of what was deployed (a draft has none), for --check. */
      const pages: string[] = [];
      for (const t of texts) {
        const from = renamed.get(t.file);
        const done = await api(settings, "PUT", `/api/forms/${enc(t.slug)}${confirm}`, {
          markdown: t.text,
          // every translation, so one removed beside the form is dropped on the server too
          translations: t.translations,
          ...(from ? { renamed_from: from } : {}),
        });
        results.push({ file: t.file, ...done, ...(from ? { renamed_from: from } : {}) });
        if (!done.preview_url) pages.push(done.url);
        if (opts.json) continue;
        out(`${done.result.padEnd(9)} ${t.slug}  ${done.url}${from ? `  (was ${from})` : ""}`);
        if (done.plan) for (const line of planLines(done.plan)) out(`  ${line}`);
      }
      // a removed file closes its form: its responses stay, its URL says it is closed
      for (const r of removed) {
        const done = await api(settings, "POST", `/api/forms/${enc(r.slug)}/close`).catch(
          (error: unknown) => {
            if (error instanceof CliError && error.code === "not_found") return null;
            throw error;
          },
        );
        if (!done) continue; // never deployed: nothing to close
        results.push({ file: r.file, ...done });
        if (!opts.json) out(`${"closed".padEnd(9)} ${r.slug}  ${done.url}  (file removed)`);
      }
      if (opts.json) json(results);
      if (!opts.check) return;
      const failed = await smokeCheck(settings, pages);
      if (failed.length > 0)
        throw new CliError(`smoke check failed:\n  ${failed.join("\n  ")}`, "smoke_failed");
      say(`smoke check: /api/health and ${pages.length} page(s) answer 200`);
    });
}
