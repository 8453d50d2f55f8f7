import type { CAC } from "cac";
import { resolveSettings } from "../lib/config.ts";
import { say } from "../lib/output.ts";
import {
  fetchBundle,
  installedVersion,
  runningBundle,
  VENDORED,
  writeBundle,
} from "../lib/vendor.ts";

export function registerSelfUpdate(cli: CAC): void {
  cli
    .command(
      "self-update",
      `Replace this repository's ${VENDORED} with the CLI the server serves (its own version)`,
    )
    .example("node .formdown/formdown.mjs self-update --url https://forms.example.com")
    .action(async (opts: { url?: string }) => {
      const { url } = resolveSettings({ ...(opts.url ? { url: opts.url } : {}) });
      // the running bundle replaces itself; run from a checkout, the repository's wrapper is meant
      const target = runningBundle() ?? VENDORED;
      const before = await installedVersion(target);
      const { text, version } = await fetchBundle(url);
      await writeBundle(target, text);
      say(
        before === version
          ? `${target}: formdown ${version} from ${url} (same version, refreshed)`
          : `${target}: formdown ${before ?? "(none)"} → ${version} from ${url}`,
      );
    });
}
