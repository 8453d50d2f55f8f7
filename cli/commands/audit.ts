import type { CAC } from "cac";
import type { z } from "zod";
import type { auditEntry } from "../../functions/contracts/audit.ts";
import { api } from "../lib/api.ts";
import { resolveSettings } from "../lib/config.ts";
import { json, out, table } from "../lib/output.ts";

interface Opts {
  since?: string;
  until?: string;
  form?: string;
  action?: string;
  limit?: number;
  page?: number;
  json?: boolean;
  url?: string;
  key?: string;
}

type Entry = z.output<typeof auditEntry>;

/** `formdown audit`: who read responses or changed something, when and from where (SPEC §26). */
export function registerAudit(cli: CAC): void {
  cli
    .command("audit", "The audit log: every read of responses and every change, newest first")
    .option("--since <date>", "From this ISO date or timestamp")
    .option("--until <date>", "Before this ISO date or timestamp")
    .option("--form <slug>", "Only what touched this form")
    .option("--action <action>", "One action (responses.export) or a family (responses)")
    .option("--limit <n>", "How many (1–200)", { default: 50 })
    .option("--page <n>", "Which page", { default: 1 })
    .option("--json", "JSON instead of a table")
    .example("formdown audit --action responses.export --since 2026-11-01")
    .example("formdown audit --form contact")
    .action(async (opts: Opts) => {
      const { limit, page, since, until, form, action } = opts;
      const query = { limit, page, since, until, form, action };
      const log = await api(resolveSettings(opts), "GET /api/audit", query);
      if (opts.json) return json(log);
      out(
        table(
          ["WHEN", "WHO", "ACTION", "FORM", "DETAIL", "FROM"],
          log.entries.map((e: Entry) => [
            e.at.slice(0, 19).replace("T", " "),
            e.actor.name,
            e.action,
            e.form ?? "",
            Object.entries(e.detail)
              .map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
              .join(" "),
            e.ip ?? "",
          ]),
        ),
      );
    });
}
