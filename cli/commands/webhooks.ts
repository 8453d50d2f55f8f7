import type { CAC } from "cac";
import type { deliveries, webhookList } from "../../functions/contracts/webhooks.ts";
import { api, type Out, usage } from "../lib/api.ts";
import { resolveSettings } from "../lib/config.ts";
import { json, out, say, table } from "../lib/output.ts";

type Hooks = Out<typeof webhookList>;
type Deliveries = Out<typeof deliveries>;

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
      const need = (what: string) => {
        if (!target) throw usage(`webhooks ${action} needs the ${what} (${HELP})`);
        return target;
      };
      if (action === "add") {
        const events = opts.events
          ?.split(",")
          .map((e) => e.trim())
          .filter(Boolean);
        const hook = await api(settings, "POST /api/forms/:slug/webhooks", {
          slug,
          body: { url: need("receiver URL"), ...(events ? { events } : {}) },
        });
        json(hook);
        return say(
          "Keep the secret: it is shown only once. Receivers verify each request's webhook-signature with it.",
        );
      }
      if (action === "list") {
        const { webhooks } = await api<Hooks>(settings, "GET /api/forms/:slug/webhooks", { slug });
        if (opts.json) return json(webhooks);
        return out(
          table(
            ["ID", "URL", "EVENTS", "CREATED"],
            webhooks.map((w) => [
              w.id,
              w.url,
              w.events.join(","),
              w.created_at.slice(0, 19).replace("T", " "),
            ]),
          ),
        );
      }
      if (action === "remove") {
        const id = need("webhook id (see `formdown webhooks list`)");
        await api(settings, "DELETE /api/forms/:slug/webhooks/:id", { slug, id });
        return say(`removed ${target}`);
      }
      if (action === "test") {
        const id = need("webhook id");
        const result = await api(settings, "POST /api/forms/:slug/webhooks/:id/test", { slug, id });
        json(result);
        if (!result.delivered) process.exitCode = 1;
        return;
      }
      if (action === "deliveries") {
        const log = await api<Deliveries>(
          settings,
          "GET /api/forms/:slug/webhooks/:id/deliveries",
          {
            slug,
            id: need("webhook id"),
            limit: Number(opts.limit),
          },
        );
        if (opts.json) return json(log);
        return out(
          table(
            ["WHEN", "ID", "EVENT", "STATUS", "ATTEMPTS", "LAST"],
            log.deliveries.map((d) => [
              d.created_at.slice(0, 19).replace("T", " "),
              d.id,
              d.event,
              d.status,
              d.attempts,
              d.last_error ?? (d.last_status === null ? "" : String(d.last_status)),
            ]),
          ),
        );
      }
      throw usage(HELP);
    });
}
