import type { CAC } from "cac";
import { api, request, usage } from "../lib/api.ts";
import { resolveSettings } from "../lib/config.ts";
import { json, toSink } from "../lib/output.ts";
import { WHERE_HELP, whereParam } from "../lib/where.ts";

export const STATUS_HELP =
  "complete (default), partial (unfinished partial responses) or all; JSON only";

export function registerSubmissions(cli: CAC): void {
  cli
    .command("submissions <slug>", "Print a form's submissions: JSON by default, or CSV")
    .option("--csv", "CSV (as the export) instead of JSON")
    .option("--since <date>", "Only from this ISO date/time (inclusive)")
    .option("--until <date>", "Only before this ISO date/time")
    .option("--limit <n>", "At most this many (newest first)")
    .option("--where <condition>", WHERE_HELP)
    .option("--status <status>", STATUS_HELP)
    .example("formdown submissions contact > contact.json")
    .example("formdown submissions contact --csv --since 2026-11-01 > contact.csv")
    .example("formdown submissions nps --where 'recommend<=6' --where 'fix~billing'")
    .action(printSubmissions);
}

export interface SubmissionsOptions {
  csv?: boolean;
  since?: string;
  until?: string;
  limit?: number;
  where?: string | string[];
  status?: string;
  url?: string;
  key?: string;
}

/** `formdown submissions <slug>` and `formdown responses <slug>`: every page, or the CSV export. */
export async function printSubmissions(slug: string, opts: SubmissionsOptions): Promise<void> {
  const settings = resolveSettings(opts);
  const range = { slug, since: opts.since, until: opts.until, where: whereParam(opts.where) };
  if (opts.status !== undefined && !["complete", "partial", "all"].includes(opts.status))
    throw usage("--status must be complete, partial or all");
  if (opts.csv && opts.status !== undefined && opts.status !== "complete")
    throw usage("--status partial|all lists JSON only; the CSV export holds completed responses");
  if (opts.csv) {
    const res = await request(settings, "GET /api/forms/:slug/submissions/export", {
      ...range,
      format: "csv",
    });
    for await (const chunk of toSink(res.body!, Boolean(process.stdout.isTTY)))
      process.stdout.write(chunk);
    return;
  }
  // follow variant B's pages to the end (or to --limit)
  const all: unknown[] = [];
  const max = opts.limit === undefined ? Number.POSITIVE_INFINITY : Number(opts.limit);
  for (let offset = 0; all.length < max; ) {
    const page = await api<{ submissions: unknown[]; total: number }>(
      settings,
      "GET /api/forms/:slug/submissions",
      { ...range, limit: 100, offset, status: opts.status },
    );
    all.push(...page.submissions.slice(0, max - all.length));
    offset += page.submissions.length;
    if (page.submissions.length === 0 || offset >= page.total) break;
  }
  json(all);
}
