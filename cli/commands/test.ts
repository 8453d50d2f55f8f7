import type { CAC } from "cac";
import { formatFormFileError } from "../../src/core/form-file-error.ts";
import { CliError } from "../lib/api.ts";
import { json, out, say } from "../lib/output.ts";

export function registerTest(cli: CAC): void {
  cli
    .command(
      "test [...files]",
      "Run the forms' logic tests (tests: in the form, or <slug>.test.yaml beside it) offline; exit 1 on a failing case, printed at file:line; default: forms/@*/*.md",
    )
    .option("--json", "Machine-readable results")
    .example("formdown test")
    .example("formdown test forms/@me/quote.md")
    .action(async (files: string[], opts: { json?: boolean }) => {
      const [{ formTests, runFormTests, failureLines }, { formFiles }] = await Promise.all([
        import("../lib/logic-tests.ts"),
        import("../lib/check-files.ts"),
      ]);
      const forms = await formTests(files.length > 0 ? files : await formFiles());
      let failed = 0;
      let total = 0;
      const report = forms.map((f) => {
        const results = runFormTests(f);
        const bad = results.filter((r) => !r.passed);
        failed += bad.length + (f.errors.length > 0 ? 1 : 0);
        total += results.length;
        if (!opts.json) {
          for (const e of f.errors) out(formatFormFileError(e));
          for (const r of bad) for (const line of failureLines(r)) out(line);
          if (f.errors.length === 0 && bad.length === 0)
            say(`✓ ${f.file}: ${results.length} of ${results.length} cases pass`);
        }
        return {
          file: f.file,
          errors: f.errors,
          results,
          passed: results.length - bad.length,
          failed: bad.length,
        };
      });
      if (opts.json) json(report);
      if (forms.length === 0)
        say("no logic tests found (tests: in a form, or <slug>.test.yaml beside it)");
      if (failed > 0) throw new CliError(`${failed} of ${total} cases fail`, "test_failed");
    });
}
