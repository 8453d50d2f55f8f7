import type { CAC } from "cac";
import { formatFormFileError } from "../../src/core/form-file.ts";
import { CliError } from "../lib/api.ts";
import { checkFiles, formFiles } from "../lib/check-files.ts";
import { json, out, say } from "../lib/output.ts";

export function registerValidate(cli: CAC): void {
  cli
    .command(
      "validate [...files]",
      "Check form files against every rule deploy applies (no server needed); default: forms/@*/*.md",
    )
    .option("--json", "Machine-readable results")
    .example("formdown validate")
    .example("formdown validate forms/@me/*.md")
    .action(async (files: string[], opts: { json?: boolean }) => {
      const results = await checkFiles(files.length > 0 ? files : await formFiles());
      if (opts.json)
        json(
          results.map((r) => ({ file: r.file, valid: r.errors.length === 0, errors: r.errors })),
        );
      else {
        for (const r of results) {
          if (r.errors.length === 0) say(`✓ ${r.file}`);
          for (const e of r.errors) out(formatFormFileError(e));
        }
      }
      const bad = results.filter((r) => r.errors.length > 0).length;
      if (bad > 0)
        throw new CliError(
          `${bad} of ${results.length} form files are not valid`,
          "validation_failed",
        );
    });
}
