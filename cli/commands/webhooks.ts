import type { CAC } from "cac";
import { api, enc, usage } from "../lib/api.ts";
import { resolveSettings } from "../lib/config.ts";
import { json, out, say, table } from "../lib/output.ts";
import { WHERE_HELP, whereQuery } from "../lib/where.ts";
import { printSubmissions, STATUS_HELP, type SubmissionsOptions } from "./submissions.ts";

interface Opts {
  events?: string;
  limit?: number;
  json?: boolean;
  url?: string;
  key?: string;
}

const HELP =
  "webhooks actions: add <slug> <url>, list <slug>, remove <slug> <id>, deliveries <slug> <id>, test <slug> <id>";

export function registerWebhooks(cli: CAC): void {
  cli
    .command(
      "webhooks <action> <slug> [target]",
      "Push responses to your endpoints: add, list, remove, deliveries, test",
    )
    .option("--events <events>", "For add: response.created,response.deleted (default both)")
    .option("--limit <n>", "For deliveries: how many", { default: 25 })
    .option("--json", "JSON instead of a table")
    .example("formdown webhooks add contact https://example.com/hooks/formdown")
    .example("formdown webhooks list contact")
    .example("formdown webhooks deliveries contact 3f2c…")
    .example("formdown webhooks test contact 3f2c…")
    .example("formdown webhooks remove contact 3f2c…")
    .action(async (action: string, slug: string, target: string | undefined, opts: Opts) => {
      const settings = resolveSettings(opts);
      const base = `/api/forms/${enc(slug)}/webhooks`;
      const need = (what: string) => {
        if (!target) throw usage(`webhooks ${action} needs the ${what} (${HELP})`);
        return target;
      };
      if (action === "add") {
        const events = opts.events
          ?.split(",")
          .map((e) => e.trim())
          .filter(Boolean);
        const hook = await api(settings, "POST", base, {
          url: need("receiver URL"),
          ...(events ? { events } : {}),
        });
        json(hook);
        return say(
          "Keep the secret: it is shown only once. Receivers verify each request's webhook-signature with it.",
        );
      }
      if (action === "list") {
        const { webhooks } = await api(settings, "GET", base);
        if (opts.json) return json(webhooks);
        return out(
          table(
            ["ID", "URL", "EVENTS", "CREATED"],
            webhooks.map((w: { id: string; url: string; events: string[]; created_at: string }) => [
              w.id,
              w.url,
              w.events.join(","),
              w.created_at.slice(0, 19).replace("T", " "),
            ]),
          ),
        );
      }
      if (action === "remove") {
        await api(
          settings,
          "DELETE",
          `${base}/${enc(need("webhook id (see `formdown webhooks list`)"))}`,
        );
        return say(`removed ${target}`);
      }
      if (action === "test") {
        const result = await api(settings, "POST", `${base}/${enc(need("webhook id"))}/test`);
        json(result);
        if (!result.delivered) process.exitCode = 1;
        return;
      }
      if (action === "deliveries") {
        const log = await api(
          settings,
          "GET",
          `${base}/${enc(need("webhook id"))}/deliveries?limit=${Number(opts.limit)}`,
        );
        if (opts.json) return json(log);
        return out(
          table(
            ["WHEN", "ID", "EVENT", "STATUS", "ATTEMPTS", "LAST"],
            log.deliveries.map(
              (d: {
                created_at: string;
                id: string;
                event: string;
                status: string;
                attempts: number;
                last_status: number | null;
                last_error: string | null;
              }) => [
                d.created_at.slice(0, 19).replace("T", " "),
                d.id,
                d.event,
                d.status,
                d.attempts,
                d.last_error ?? (d.last_status === null ? "" : String(d.last_status)),
              ],
            ),
          ),
        );
      }
      throw usage(HELP);
    });
}

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
        const base = `/api/forms/${enc(slug)}/responses`;
        if (id) {
          if (opts.since || opts.until || opts.where)
            throw usage("give a response id or --since/--until/--where, not both");
          await api(settings, "DELETE", `${base}/${enc(id)}`);
          return say(`deleted ${id}`);
        }
        if (!opts.since && !opts.until && !opts.where)
          throw usage("responses delete needs a response id, or --since, --until and/or --where");
        const query = new URLSearchParams();
        if (opts.since) query.set("since", String(opts.since));
        if (opts.until) query.set("until", String(opts.until));
        const { deleted } = await api(
          settings,
          "DELETE",
          `${base}?${query}${whereQuery(opts.where)}`,
        );
        say(`deleted ${deleted} response${deleted === 1 ? "" : "s"}`);
        json({ deleted });
      },
    );
}
