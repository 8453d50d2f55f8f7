import type { CAC } from "cac";
import { formatFormFileError } from "../../src/core/form-file-error.ts";
import { resolveSettings } from "../lib/config.ts";
import { say } from "../lib/output.ts";

type DevFile = { file: string; errors: Parameters<typeof formatFormFileError>[0][] };
type Options = { port: number; url?: string; key?: string };

const report = (files: DevFile[]) => {
  for (const f of files)
    if (f.errors.length === 0) say(`✓ ${f.file}`);
    else for (const e of f.errors) say(formatFormFileError(e));
};

const stopped = () =>
  new Promise<void>((done) => {
    process.once("SIGINT", done);
    process.once("SIGTERM", done);
  });

export function registerDev(cli: CAC): void {
  cli
    .command(
      "dev [...files]",
      "Preview form files with live reload: in a Formdown checkout on a throwaway database; elsewhere (or with --url) as drafts on the running server, never published",
    )
    .option("--port <port>", "Local port (in a Formdown checkout)", { default: 4322 })
    .example("formdown dev")
    .example("formdown dev forms/@me/contact.md --port 5000")
    .example("formdown dev --url forms.example.com   # drafts on that server")
    .action(async (files: string[], opts: Options) => {
      // the dev server is the real server and pages: it is loaded from the checkout, never
      // bundled into the stand-alone CLI (a computed specifier keeps the bundler away)
      const where = new URL("../../functions/node/dev/dev-server.ts", import.meta.url).href;
      const dev = opts.url ? null : await import(where).catch(() => null);
      if (!dev) return remote(files, opts);
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
      await stopped();
      await server.close();
    });
}

/** No checkout here, or --url given: drafts on the running server (cli/lib/dev-remote.ts). */
async function remote(files: string[], opts: Options): Promise<void> {
  const settings = resolveSettings(opts);
  say(
    `formdown dev: previewing on ${settings.url} as drafts named <slug>-dev; nothing is published and live forms are never changed`,
  );
  const { startRemoteDev } = await import("../lib/dev-remote.ts");
  const dev = await startRemoteDev(settings, files, process.cwd());
  say("Watching for saves; each preview page reloads after one (Ctrl+C stops)");
  await stopped();
  dev.close();
}
