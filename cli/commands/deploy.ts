import type { CAC } from "cac";
import { formatFormFileError } from "../../src/core/form-file.ts";
import { api, CliError, enc } from "../lib/api.ts";
import { checkFiles, formFiles } from "../lib/check-files.ts";
import { resolveSettings } from "../lib/config.ts";
import { type FormChanges, formChanges } from "../lib/git-changes.ts";
import { json, out, say } from "../lib/output.ts";

type Options = { dryRun?: boolean; json?: boolean; url?: string; key?: string; since?: string[] };

export function registerDeploy(cli: CAC): void {
  cli
    .command(
      "deploy [...files]",
      "Validate form files, then make each live (created or updated in place); default: forms/@*/*.md",
    )
    .option("--dry-run", "Only validate; change nothing")
    .option("--json", "Machine-readable results")
    .option(
      "--since <ref>",
      "Deploy what git says changed since this commit: renamed files keep their form (the old URL redirects), removed files close theirs",
      // a commit id of digits alone must stay text, not become a number
      { type: [String] },
    )
    .example("formdown deploy forms/@me/*.md")
    .example("formdown deploy --since origin/main~1")
    .example("formdown deploy forms/@acme/signup.md --url https://forms.example.com --key $KEY")
    .action(async (files: string[], opts: Options) => {
      const settings = resolveSettings(opts);
      const since = opts.since?.at(-1);
      const changes: FormChanges | null = since ? formChanges(since) : null;
      if (since && !changes) say(`${since} is not a commit here: deploying every file`);
      const renamed = new Map(
        (changes?.deploy ?? []).flatMap((d) => (d.renamedFrom ? [[d.file, d.renamedFrom]] : [])),
      );
      const chosen = changes ? changes.deploy.map((d) => d.file) : files;
      const texts: { file: string; text: string; slug: string }[] = [];
      let invalid = 0;
      // the same checks as `formdown validate`: a slug that differs from its file name would
      // otherwise be deployed under another name and leave the file behind
      const paths = changes ? chosen : files.length > 0 ? files : await formFiles();
      for (const c of paths.length > 0 ? await checkFiles(paths) : []) {
        if (c.errors.length > 0 || !c.form) {
          invalid++;
          for (const e of c.errors) out(formatFormFileError(e));
        } else texts.push({ file: c.file, text: c.text, slug: c.form.slug });
      }
      if (invalid > 0)
        throw new CliError(
          `${invalid} form file(s) are not valid; nothing was deployed`,
          "validation_failed",
        );
      const removed = changes?.removed ?? [];
      if (opts.dryRun)
        return say(
          `${texts.length} form file(s) valid, ${removed.length} removed (dry run: nothing deployed)`,
        );
      const results = [];
      for (const t of texts) {
        const from = renamed.get(t.file);
        const done = await api(settings, "PUT", `/api/forms/${enc(t.slug)}`, {
          markdown: t.text,
          ...(from ? { renamed_from: from } : {}),
        });
        results.push({ file: t.file, ...done, ...(from ? { renamed_from: from } : {}) });
        if (!opts.json)
          out(`${done.result.padEnd(9)} ${t.slug}  ${done.url}${from ? `  (was ${from})` : ""}`);
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
    });
}
