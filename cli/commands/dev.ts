import type { CAC } from "cac";
import { formatFormFileError } from "../../src/core/form-file.ts";
import { CliError } from "../lib/api.ts";
import { say } from "../lib/output.ts";

type DevFile = { file: string; errors: Parameters<typeof formatFormFileError>[0][] };

const report = (files: DevFile[]) => {
  for (const f of files)
    if (f.errors.length === 0) say(`✓ ${f.file}`);
    else for (const e of f.errors) say(formatFormFileError(e));
};

export function registerDev(cli: CAC): void {
  cli
    .command(
      "dev [...files]",
      "Preview form files with live reload and a throwaway database (in a Formdown checkout)",
    )
    .option("--port <port>", "Local port", { default: 4322 })
    .example("formdown dev")
    .example("formdown dev forms/@me/contact.md --port 5000")
    .action(async (files: string[], opts: { port: number }) => {
      // the dev server is the real server and pages: it is loaded from the checkout, never
      // bundled into the stand-alone CLI (a computed specifier keeps the bundler away)
      const where = new URL("../../functions/node/dev/dev-server.ts", import.meta.url).href;
      const dev = await import(where).catch(() => {
        throw new CliError(
          "formdown dev needs the Formdown server (its page components and embedded database): run it inside a Formdown checkout, naming your files",
          "usage",
          2,
        );
      });
      const server = await dev.startDevServer({
        files,
        cwd: process.cwd(),
        port: Number(opts.port),
        log: { info: say, error: (m: string, e?: unknown) => say(`${m}${e ? `: ${e}` : ""}`) },
      });
      report(server.files());
      server.watch((changed: DevFile[]) => {
        say(`\n${new Date().toLocaleTimeString()} reloaded`);
        report(changed);
      });
      say(`\nformdown dev: ${server.url} (Ctrl+C stops; submissions go to a throwaway database)`);
      await new Promise<void>((done) => {
        process.once("SIGINT", done);
        process.once("SIGTERM", done);
      });
      await server.close();
    });
}
