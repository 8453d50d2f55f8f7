import type { CAC } from "cac";
import { api, request, usage } from "../lib/api.ts";
import { resolveSettings } from "../lib/config.ts";
import { json, out, say, styled, table } from "../lib/output.ts";
import { renderStats } from "../lib/stats-view.ts";
import { ASCII, speaksUtf8, UNICODE, wantsColour } from "../lib/terminal-charts.ts";
import { WHERE_HELP, whereParam } from "../lib/where.ts";

interface StatsOptions {
  json?: boolean;
  where?: string | string[];
  url?: string;
  key?: string;
}

export function registerStats(cli: CAC): void {
  cli
    .command(
      "stats <slug>",
      "Responses, completion, the last 7 days and where respondents drop off",
    )
    .option("--json", "JSON instead of text")
    .option("--where <condition>", WHERE_HELP)
    .example("formdown stats contact")
    .example("formdown stats nps --where 'plan=Pro'")
    .action(async (slug: string, opts: StatsOptions) => {
      const settings = resolveSettings(opts);
      const s = await api(settings, "GET /api/forms/:slug/stats", {
        slug,
        where: whereParam(opts.where),
      });
      if (opts.json) return json(s);
      const form = await api(settings, "GET /api/forms/:slug", { slug });
      const labels = new Map<string, string>(
        (form.config?.fields ?? []).map((f: { id: string; label?: string }) => [
          f.id,
          f.label ?? f.id,
        ]),
      );
      const glyphs = speaksUtf8(process.env, process.platform) ? UNICODE : ASCII;
      styled(
        renderStats(s, labels, glyphs, wantsColour(Boolean(process.stdout.isTTY), process.env)),
      );
    });
}

export function registerReport(cli: CAC): void {
  cli
    .command(
      "report <slug>",
      "A report of a form's responses: Markdown, or an HTML page with charts",
    )
    .option("--period <period>", "7d, 30d, 90d or all", { default: "7d" })
    .option("--html", "One self-contained HTML page with charts instead of Markdown")
    .option("-o, --output <file>", "Write the report to a file instead of stdout")
    .option("--open", "Open the report in the browser (implies --html)")
    .option("--where <condition>", `${WHERE_HELP}: the report of that segment`)
    .example("formdown report product-survey --period 30d > report.md")
    .example("formdown report product-survey --html -o report.html")
    .example("formdown report product-survey --open")
    .example("formdown report nps --period all --where 'recommend<=6'")
    .action(
      async (
        slug: string,
        opts: {
          period: string;
          html?: boolean;
          output?: string;
          open?: boolean;
          where?: string | string[];
          url?: string;
          key?: string;
        },
      ) => {
        if (!["7d", "30d", "90d", "all"].includes(opts.period))
          throw usage("--period must be 7d, 30d, 90d or all");
        const html = Boolean(opts.html || opts.open);
        const res = await request(resolveSettings(opts), "GET /api/forms/:slug/report", {
          slug,
          period: opts.period,
          format: html ? "html" : undefined,
          where: whereParam(opts.where),
        });
        const text = await res.text();
        let file = opts.output;
        if (!file && opts.open) {
          const { tmpdir } = await import("node:os");
          const { join } = await import("node:path");
          file = join(tmpdir(), `formdown-${slug}-report-${Date.now()}.html`);
        }
        if (!file) return out(text);
        const { writeFile } = await import("node:fs/promises");
        await writeFile(file, text);
        say(`Wrote ${file}`);
        if (opts.open) openInBrowser(file);
      },
    );
}

/** Hands a file or URL to the desktop's opener; without one, the path printed above is enough. */
function openInBrowser(target: string): void {
  import("node:child_process").then(({ spawn }) => {
    const [cmd, args] =
      process.platform === "darwin"
        ? ["open", [target]]
        : process.platform === "win32"
          ? ["cmd", ["/c", "start", "", target]]
          : ["xdg-open", [target]];
    spawn(cmd as string, args as string[], { detached: true, stdio: "ignore" })
      .on("error", () => say(`No browser to open; the report is at ${target}`))
      .unref();
  });
}

export function registerOutbox(cli: CAC): void {
  cli
    .command(
      "outbox",
      "Emails due, sent, or kept (not sent: no mail provider) for your forms (the embedded mailbox)",
    )
    .option("--limit <n>", "How many", { default: 20 })
    .option("--json", "JSON instead of a table")
    .example("formdown outbox")
    .action(async (opts: { limit: number; json?: boolean; url?: string; key?: string }) => {
      const box = await api(resolveSettings(opts), "GET /api/outbox", {
        limit: Number(opts.limit),
      });
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
              // nothing left the machine: never called sent (issue 47)
              e.status === "kept" ? "kept, not sent" : e.status,
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
      const form = await api(resolveSettings(opts), "GET /api/forms/:slug", { slug });
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
