import { Buffer } from "node:buffer";
import { createWriteStream } from "node:fs";
import type { CAC } from "cac";
import { request, usage } from "../lib/api.ts";
import { resolveSettings } from "../lib/config.ts";
import { say, toSink } from "../lib/output.ts";
import { WHERE_HELP, whereParam } from "../lib/where.ts";

export function registerExport(cli: CAC): void {
  cli
    .command("export <slug>", "Stream a form's responses as CSV, JSON, Markdown or XLSX")
    .option("--format <format>", "csv, json, markdown or xlsx", { default: "csv" })
    .option("--labels", "The questions' labels as the header row (XLSX always has them)")
    .option("--bom", "CSV: a UTF-8 byte order mark first, for spreadsheets")
    .option("-o, --output <file>", "Write to a file instead of stdout")
    .option("--since <date>", "Only from this ISO date/time")
    .option("--until <date>", "Only before this ISO date/time")
    .option("--where <condition>", WHERE_HELP)
    .example("formdown export contact --format csv -o contact.csv")
    .example("formdown export nps --where 'recommend<=6' -o detractors.csv")
    .example("formdown export contact --format xlsx -o contact.xlsx")
    .action(
      async (
        slug: string,
        opts: {
          format: string;
          output?: string;
          since?: string;
          until?: string;
          where?: string | string[];
          labels?: boolean;
          bom?: boolean;
          url?: string;
          key?: string;
        },
      ) => {
        if (!["csv", "json", "markdown", "xlsx"].includes(opts.format))
          throw usage("--format must be csv, json, markdown or xlsx");
        const xlsx = opts.format === "xlsx";
        if (xlsx && !opts.output && process.stdout.isTTY)
          throw usage("--format xlsx writes a binary file: add -o <file>.xlsx");
        const res = await request(resolveSettings(opts), "GET /api/forms/:slug/responses/export", {
          slug,
          format: opts.format,
          since: opts.since,
          until: opts.until,
          where: whereParam(opts.where),
          header: opts.labels ? "labels" : undefined,
          bom: opts.bom,
        });
        const sink = opts.output ? createWriteStream(opts.output) : process.stdout;
        const progress = process.stderr.isTTY;
        let bytes = 0;
        // on a terminal the answers' control characters are shown, not run (SPEC §23)
        const terminal = !opts.output && !xlsx && Boolean(process.stdout.isTTY);
        for await (const chunk of toSink(res.body!, terminal)) {
          bytes += typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.byteLength;
          if (!sink.write(chunk)) await new Promise<void>((r) => sink.once("drain", () => r()));
          if (progress) process.stderr.write(`\rexporting… ${(bytes / 1024).toFixed(0)} KB`);
        }
        if (progress) process.stderr.write("\n");
        if (opts.output) {
          await new Promise<void>((r) =>
            (sink as ReturnType<typeof createWriteStream>).end(() => r()),
          );
          say(`wrote ${opts.output} (${bytes} bytes)`);
        }
      },
    );
}
