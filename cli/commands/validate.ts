import type { CAC } from "cac";
import { type FormFileError, formatFormFileError } from "../../src/core/form-file-error.ts";
import { CliError } from "../lib/api.ts";
import { json, out, say } from "../lib/output.ts";

/** A warning as validate prints it: `file:line: warning: path: message`. */
const warning = (e: FormFileError) =>
  formatFormFileError({ ...e, path: "", where: `warning: ${e.where ?? e.path}` });

export function registerValidate(cli: CAC): void {
  cli
    .command(
      "validate [...files]",
      "Check form files and their translations against every rule deploy applies (no server needed); default: forms/@*/*.md",
    )
    .option("--json", "Machine-readable results")
    .option("--strict", "Treat warnings (strings a translation lacks) as errors")
    .example("formdown validate")
    .example("formdown validate --strict forms/@me/*.md")
    .action(async (files: string[], opts: { json?: boolean; strict?: boolean }) => {
      const { checkFiles, formFiles } = await import("../lib/check-files.ts");
      const results = (await checkFiles(files.length > 0 ? files : await formFiles())).map((r) =>
        opts.strict ? { ...r, errors: [...r.errors, ...r.warnings], warnings: [] } : r,
      );
      if (opts.json)
        json(
          results.map((r) => ({
            file: r.file,
            kind: r.kind,
            valid: r.errors.length === 0,
            errors: r.errors,
            warnings: r.warnings,
          })),
        );
      else {
        for (const r of results) {
          if (r.errors.length === 0 && r.warnings.length === 0) say(`✓ ${r.file}`);
          for (const e of r.errors) out(formatFormFileError(e));
          for (const e of r.warnings) out(warning(e));
        }
      }
      const bad = results.filter((r) => r.errors.length > 0).length;
      if (bad > 0)
        throw new CliError(`${bad} of ${results.length} files are not valid`, "validation_failed");
    });
}
