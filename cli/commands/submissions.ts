import type { CAC } from "cac";
import { api, enc, request } from "../lib/api.ts";
import { resolveSettings } from "../lib/config.ts";
import { json } from "../lib/output.ts";

export function registerSubmissions(cli: CAC): void {
  cli
    .command("submissions <slug>", "Print a form's submissions: JSON by default, or CSV")
    .option("--csv", "CSV (as the export) instead of JSON")
    .option("--since <date>", "Only from this ISO date/time (inclusive)")
    .option("--until <date>", "Only before this ISO date/time")
    .option("--limit <n>", "At most this many (newest first)")
    .example("formdown submissions contact > contact.json")
    .example("formdown submissions contact --csv --since 2026-11-01 > contact.csv")
    .action(
      async (
        slug: string,
        opts: {
          csv?: boolean;
          since?: string;
          until?: string;
          limit?: number;
          url?: string;
          key?: string;
        },
      ) => {
        const settings = resolveSettings(opts);
        const range = `${opts.since ? `&since=${enc(opts.since)}` : ""}${opts.until ? `&until=${enc(opts.until)}` : ""}`;
        if (opts.csv) {
          const res = await request(
            settings,
            "GET",
            `/api/forms/${enc(slug)}/submissions/export?format=csv${range}`,
          );
          for await (const chunk of res.body!) process.stdout.write(chunk);
          return;
        }
        // follow variant B's pages to the end (or to --limit)
        const all: unknown[] = [];
        const max = opts.limit === undefined ? Number.POSITIVE_INFINITY : Number(opts.limit);
        for (let offset = 0; all.length < max; ) {
          const page = await api<{ submissions: unknown[]; total: number }>(
            settings,
            "GET",
            `/api/forms/${enc(slug)}/submissions?limit=100&offset=${offset}${range}`,
          );
          all.push(...page.submissions.slice(0, max - all.length));
          offset += page.submissions.length;
          if (page.submissions.length === 0 || offset >= page.total) break;
        }
        json(all);
      },
    );
}
