import { existsSync } from "node:fs";
import type { CAC } from "cac";
import type { z } from "zod";
import type { reconciled } from "../../functions/contracts/deploys.ts";
import type { Plan } from "../../src/core/plan/plan.ts";
import { planLines } from "../../src/core/plan/plan.ts";
import { api, CliError } from "../lib/api.ts";
import { resolveSettings } from "../lib/config.ts";
import { json, out, say } from "../lib/output.ts";
import { isZeroCommit, rawOption } from "../lib/raw-option.ts";
import { smokeCheck } from "../lib/smoke.ts";
import { validFiles } from "./plan.ts";

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
      "Reconcile the server with the form files: added and changed ones made live, renamed ones moved (the old URL redirects), removed ones closed; files named: only those",
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
      "Find renames against this commit instead of the one the server last applied from this repository",
      // a commit id of digits alone must stay text, not become a number
      { type: [String] },
    )
    .example("formdown deploy forms/@me/*.md")
    .example("formdown deploy --since origin/main~1 --check")
    .example("formdown deploy forms/@acme/signup.md --url https://forms.example.com --key $KEY")
    .action(async (files: string[], opts: Options) => {
      const settings = resolveSettings(opts);
      const [{ gitState, renamesSince }, { BUNDLED_EXAMPLES }] = await Promise.all([
        import("../../functions/repo/git-history.ts"),
        import("../../src/core/bundled-examples.ts"),
      ]);
      // the one reconcile (SPEC §22): every form file at HEAD, and what git saw renamed since the
      // commit the server last applied from this repository (or --since)
      const git = await gitState(".").catch(() => null);
      const repository = git?.repository ?? `path:${process.cwd()}`;
      const complete = files.length === 0;
      // the same checks as `formdown validate`: nothing is sent while a file is not valid
      const texts = await validFiles(files);
      const chosen = new Set(texts.map((t) => t.file));
      const keep = complete ? BUNDLED_EXAMPLES.filter((p) => existsSync(p) && !chosen.has(p)) : [];
      // as typed: cac reads a commit id of digits alone (a first push's zeros) as a number
      const given = opts.since
        ? (rawOption(process.argv, "--since") ?? String(opts.since.at(-1)))
        : undefined;
      const since =
        (given && !isZeroCommit(given) ? given : undefined) ??
        (git?.head
          ? (
              await api<{ commit: string | null }>(settings, "GET /api/deploys/head", {
                repository,
              })
            ).commit
          : null);
      const renames = git?.head ? await renamesSince(".", since, git.head) : [];
      const body = {
        repository,
        commit: git?.head ?? null,
        files: texts.map((t) => ({ path: t.file, markdown: t.text, translations: t.translations })),
        renames,
        keep,
        complete,
        dry_run: Boolean(opts.dryRun),
        confirm: Boolean(opts.confirm),
      };
      const done = await api<Reconciled>(settings, "POST /api/deploys", { body });
      // every file's outcome; the last line counts what changed
      const shown = done.results.filter((r) => r.result !== "skipped");
      const changed = shown.filter((r) => r.result !== "unchanged");
      // a dry run's JSON is also `formdown plan`'s ({plans}), beside each file's outcome
      if (opts.json)
        json(
          opts.dryRun
            ? { plans: shown.flatMap((r) => (r.plan ? [r.plan] : [])), results: shown }
            : shown,
        );
      else {
        for (const r of shown) printResult(r);
        say(`${changed.length} change(s), ${shown.length - changed.length} file(s) unchanged`);
      }
      const refused = done.results.filter((r) => r.result === "invalid");
      if (refused.length > 0)
        throw new CliError(
          `${refused.length} form file(s) were not deployed: ${refused.map((r) => r.path).join(", ")}`,
          // one reason for all (an unconfirmed destructive plan, say) is the run's
          new Set(refused.map((r) => r.code)).size === 1 && refused[0]!.code
            ? refused[0]!.code
            : "validation_failed",
        );
      if (opts.dryRun) return say("dry run: nothing deployed");
      if (!opts.check) return;
      const pages = done.results
        .filter((r) => r.url && r.result !== "closed" && r.result !== "skipped")
        .map((r) => r.url!);
      const failed = await smokeCheck(settings, pages);
      if (failed.length > 0)
        throw new CliError(`smoke check failed:\n  ${failed.join("\n  ")}`, "smoke_failed");
      say(`smoke check: /api/health and ${pages.length} page(s) answer 200`);
    });
}

/** The answer of POST /api/deploys, a result's plan read as the plan it is. */
type Result = Omit<z.output<typeof reconciled>["results"][number], "plan"> & { plan?: Plan };
type Reconciled = { results: Result[] };

function printResult(r: Result): void {
  const note =
    r.result === "renamed"
      ? `  (was ${r.renamed_from})`
      : r.result === "closed"
        ? "  (file removed)"
        : r.result === "invalid"
          ? `  ${r.reason ?? ""}`
          : "";
  // a refused file goes to stderr with its plan, as a refused PUT's answer did
  const print = r.result === "invalid" ? say : out;
  print(`${r.result.padEnd(9)} ${r.slug || r.path}  ${r.url ?? ""}${note}`);
  if (r.plan) for (const line of planLines(r.plan)) print(`  ${line}`);
}
