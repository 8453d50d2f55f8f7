import { readFile } from "node:fs/promises";
import type { CAC } from "cac";
import {
  type FormFileError,
  formatFormFileError,
  parseFormFile,
} from "../../src/core/form-file.ts";
import { CliError, usage } from "../lib/api.ts";
import { json, out, say } from "../lib/output.ts";

export async function validateFiles(
  files: string[],
): Promise<{ file: string; errors: FormFileError[] }[]> {
  const results = [];
  for (const file of files) {
    let text: string;
    try {
      text = await readFile(file, "utf8");
    } catch {
      throw usage(`cannot read ${file}`);
    }
    const parsed = parseFormFile(text, file);
    results.push({ file, errors: parsed.ok ? [] : parsed.errors });
  }
  return results;
}

export function registerValidate(cli: CAC): void {
  cli
    .command("validate <...files>", "Check form files against every rule (no server needed)")
    .option("--json", "Machine-readable results")
    .example("formdown validate forms/@me/*.md")
    .action(async (files: string[], opts: { json?: boolean }) => {
      const results = await validateFiles(files);
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
