import type { CAC } from "cac";
import type { z } from "zod";
import type { formSummary } from "../../functions/contracts/forms.ts";
import { api } from "../lib/api.ts";
import { resolveSettings } from "../lib/config.ts";
import { json, out, say, table } from "../lib/output.ts";

/** An item of GET /api/forms. */
type Summary = z.output<typeof formSummary>;

export function registerList(cli: CAC): void {
  cli
    .command("list", "Your forms with status, responses and views")
    .option("--json", "JSON instead of a table")
    .example("formdown list")
    .action(async (opts: { json?: boolean; url?: string; key?: string }) => {
      const forms = await api<Summary[]>(resolveSettings(opts), "GET /api/forms");
      if (opts.json) return json(forms);
      if (forms.length === 0)
        return say("No forms yet. Create one with `formdown init` and `formdown deploy`.");
      out(
        table(
          ["SLUG", "TYPE", "STATUS", "RESPONSES", "VIEWS", "URL"],
          forms.map((f) => [
            f.slug,
            f.type,
            f.status,
            f.stats.responses,
            f.stats.views,
            f.public_url,
          ]),
        ),
      );
    });
}
