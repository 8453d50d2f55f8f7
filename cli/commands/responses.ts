import type { CAC } from "cac";
import { api, usage } from "../lib/api.ts";
import { resolveSettings } from "../lib/config.ts";
import { json, say } from "../lib/output.ts";
import { WHERE_HELP, whereParam } from "../lib/where.ts";
import { printSubmissions, STATUS_HELP, type SubmissionsOptions } from "./submissions.ts";

/** `formdown responses`: a form's responses, or their erasure (SPEC §12). */
export function registerResponses(cli: CAC): void {
  cli
    .command(
      "responses <slug-or-action> [slug] [id]",
      "Print a form's responses (as submissions does), or delete one, a time range or those --where matches (action: delete)",
    )
    .option("--since <when>", "Only responses at or after this ISO date or timestamp")
    .option("--until <when>", "Only responses before this ISO date or timestamp")
    .option("--where <condition>", WHERE_HELP)
    .option("--csv", "CSV (as the export) instead of JSON")
    .option("--limit <n>", "At most this many (newest first)")
    .option("--status <status>", STATUS_HELP)
    .example("formdown responses nps --where 'recommend<=6' --where 'fix~billing'")
    .example("formdown responses delete contact 6f1e…")
    .example("formdown responses delete contact --until 2025-01-01")
    .example("formdown responses delete nps --where 'fix~billing'")
    .action(
      async (
        action: string,
        slug: string | undefined,
        id: string | undefined,
        opts: SubmissionsOptions,
      ) => {
        if (action !== "delete") {
          if (id !== undefined || (action === "list" && slug === undefined))
            throw usage(
              "formdown responses <slug> [--where …] or formdown responses delete <slug> …",
            );
          return printSubmissions(
            action === "list" ? slug! : slug === undefined ? action : slug,
            opts,
          );
        }
        if (slug === undefined) throw usage("responses delete needs the form's slug");
        const settings = resolveSettings(opts);
        if (id) {
          if (opts.since || opts.until || opts.where)
            throw usage("give a response id or --since/--until/--where, not both");
          await api(settings, "DELETE /api/forms/:slug/responses/:id", { slug, id });
          return say(`deleted ${id}`);
        }
        if (!opts.since && !opts.until && !opts.where)
          throw usage("responses delete needs a response id, or --since, --until and/or --where");
        const range = { slug, since: opts.since, until: opts.until, where: whereParam(opts.where) };
        const { deleted } = await api(settings, "DELETE /api/forms/:slug/responses", range);
        say(`deleted ${deleted} response${deleted === 1 ? "" : "s"}`);
        json({ deleted });
      },
    );
}
