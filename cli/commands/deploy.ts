import type { CAC } from "cac";
import { formatFormFileError } from "../../src/core/form-file.ts";
import { api, CliError, enc } from "../lib/api.ts";
import { checkFiles, formFiles } from "../lib/check-files.ts";
import { resolveSettings } from "../lib/config.ts";
import { json, out, say } from "../lib/output.ts";

export function registerDeploy(cli: CAC): void {
  cli
    .command(
      "deploy [...files]",
      "Validate form files, then make each live (created or updated in place); default: forms/@*/*.md",
    )
    .option("--dry-run", "Only validate; change nothing")
    .option("--json", "Machine-readable results")
    .example("formdown deploy forms/@me/*.md")
    .example("formdown deploy forms/@acme/signup.md --url https://forms.example.com --key $KEY")
    .action(
      async (
        files: string[],
        opts: { dryRun?: boolean; json?: boolean; url?: string; key?: string },
      ) => {
        const settings = resolveSettings(opts);
        const texts: { file: string; text: string; slug: string }[] = [];
        let invalid = 0;
        // the same checks as `formdown validate`: a slug that differs from its file name would
        // otherwise be deployed under another name and leave the file behind
        for (const c of await checkFiles(files.length > 0 ? files : await formFiles())) {
          // translation files are checked with their form; they are not (yet) sent themselves
          if (c.kind === "translation" && c.errors.length === 0) continue;
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
        if (opts.dryRun)
          return say(`${texts.length} form file(s) valid (dry run: nothing deployed)`);
        const results = [];
        for (const t of texts) {
          const done = await api(settings, "PUT", `/api/forms/${enc(t.slug)}`, {
            markdown: t.text,
          });
          results.push({ file: t.file, ...done });
          if (!opts.json) out(`${done.result.padEnd(9)} ${t.slug}  ${done.url}`);
        }
        if (opts.json) json(results);
      },
    );
}
