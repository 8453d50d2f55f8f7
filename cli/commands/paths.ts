import type { CAC } from "cac";
import { formatFormFileError } from "../../src/core/form-file-error.ts";
import { CliError, usage } from "../lib/api.ts";
import { json, out } from "../lib/output.ts";

export function registerPaths(cli: CAC): void {
  cli
    .command(
      "paths <form>",
      "List every distinct path through a form (pages shown, ending reached) with example answers for each; <form> is a slug under forms/@*/ or a file",
    )
    .option("--json", "Machine-readable paths")
    .example("formdown paths quote")
    .action(async (name: string, opts: { json?: boolean }) => {
      const [{ readFile }, { formFiles }, { parseFormFile }, { findPaths }, { pageIndexes }] =
        await Promise.all([
          import("node:fs/promises"),
          import("../lib/check-files.ts"),
          import("../../src/core/form-file.ts"),
          import("../../src/core/logic/paths.ts"),
          import("../../src/core/page-indexes.ts"),
        ]);
      const file = name.endsWith(".md")
        ? name
        : (await formFiles()).find((f) => f.endsWith(`/${name}.md`));
      if (!file) throw usage(`no form "${name}" under forms/@<handler>/`);
      const text = await readFile(file, "utf8").catch(() => null);
      if (text === null) throw usage(`cannot read ${file}`);
      const parsed = parseFormFile(text, file);
      if (!parsed.ok) {
        for (const e of parsed.errors) out(formatFormFileError(e));
        throw new CliError(`${file} is not valid`, "validation_failed");
      }
      const { form } = parsed;
      const found = findPaths(form);
      if (opts.json) return json(found);
      const pages = pageIndexes(form.type, form.fields);
      const pageName = (p: number) => {
        const step = form.fields[pages.indexOf(p)]?.step;
        return step === undefined ? `page ${p + 1}` : String(step);
      };
      found.paths.forEach((p, i) => {
        out(`${i + 1}. ${p.pages.map(pageName).join(" → ")} → ending ${p.ending}`);
        out(
          `   answers: ${JSON.stringify(p.answers)}${p.hidden ? `, hidden: ${JSON.stringify(p.hidden)}` : ""}`,
        );
      });
      if (!found.complete)
        out(`(the search stopped after its bound: there may be paths it did not try)`);
    });
}
