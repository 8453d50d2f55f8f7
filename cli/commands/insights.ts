import type { CAC } from "cac";
import { api, enc, request, usage } from "../lib/api.ts";
import { resolveSettings } from "../lib/config.ts";
import { json, out, table } from "../lib/output.ts";

export function registerStats(cli: CAC): void {
  cli
    .command("stats <slug>", "Views, starts, responses, completion and the last 7 days")
    .option("--json", "JSON instead of text")
    .example("formdown stats contact")
    .action(async (slug: string, opts: { json?: boolean; url?: string; key?: string }) => {
      const s = await api(resolveSettings(opts), "GET", `/api/forms/${enc(slug)}/stats`);
      if (opts.json) return json(s);
      out(
        table(
          ["VIEWS", "STARTS", "RESPONSES", "COMPLETION", "LAST 7 DAYS", "CHANGE"],
          [
            [
              s.views,
              s.starts,
              s.responses,
              `${Math.round(s.completion_rate * 100)}%`,
              s.sparkline_7d.map((d: { count: number }) => d.count).join(" "),
              `${s.change.delta >= 0 ? "+" : ""}${s.change.delta}${s.change.percent === null ? "" : ` (${s.change.percent}%)`}`,
            ],
          ],
        ),
      );
    });
}

export function registerReport(cli: CAC): void {
  cli
    .command("report <slug>", "A Markdown report of a form's responses")
    .option("--period <period>", "7d, 30d, 90d or all", { default: "7d" })
    .example("formdown report product-survey --period 30d > report.md")
    .action(async (slug: string, opts: { period: string; url?: string; key?: string }) => {
      if (!["7d", "30d", "90d", "all"].includes(opts.period))
        throw usage("--period must be 7d, 30d, 90d or all");
      const res = await request(
        resolveSettings(opts),
        "GET",
        `/api/forms/${enc(slug)}/report?period=${opts.period}`,
      );
      out(await res.text());
    });
}

export function registerOutbox(cli: CAC): void {
  cli
    .command("outbox", "Emails due or sent for your forms (the embedded mailbox)")
    .option("--limit <n>", "How many", { default: 20 })
    .option("--json", "JSON instead of a table")
    .example("formdown outbox")
    .action(async (opts: { limit: number; json?: boolean; url?: string; key?: string }) => {
      const box = await api(
        resolveSettings(opts),
        "GET",
        `/api/outbox?limit=${Number(opts.limit)}`,
      );
      if (opts.json) return json(box);
      out(
        table(
          ["WHEN", "FORM", "STATUS", "TO", "SUBJECT"],
          box.emails.map(
            (e: {
              created_at: string;
              form: string;
              status: string;
              to: string[];
              subject: string | null;
              attempts: number;
            }) => [
              e.created_at.slice(0, 19).replace("T", " "),
              e.form,
              e.status,
              e.to.join(", "),
              e.subject ?? "(not composed yet)",
            ],
          ),
        ),
      );
    });
}

export function registerOpen(cli: CAC): void {
  cli
    .command("open <slug>", "Print a form's public URL (with --browser, open it)")
    .option("--browser", "Open it in the default browser")
    .example("formdown open contact")
    .action(async (slug: string, opts: { browser?: boolean; url?: string; key?: string }) => {
      const form = await api(resolveSettings(opts), "GET", `/api/forms/${enc(slug)}`);
      out(form.public_url);
      if (opts.browser) {
        const { spawn } = await import("node:child_process");
        spawn(process.platform === "darwin" ? "open" : "xdg-open", [form.public_url], {
          detached: true,
          stdio: "ignore",
        })
          .on("error", () => {})
          .unref();
      }
    });
}
