import type { CAC } from "cac";
import type { invitesCreated } from "../../functions/contracts/invites.ts";
import { api, type Out, usage } from "../lib/api.ts";
import { resolveSettings } from "../lib/config.ts";
import { json, out, table } from "../lib/output.ts";

interface Opts {
  email?: string | string[];
  count?: number;
  expires?: string;
  json?: boolean;
  url?: string;
  key?: string;
}

/** `formdown invite <slug>`: personal single-use links (SPEC §25). */
export function registerInvite(cli: CAC): void {
  cli
    .command("invite <slug>", "Mint single-use links: one per --email (emailed), plus --count more")
    .option("--email <address>", "An address to invite (repeatable); its link is emailed")
    .option("--count <n>", "How many links without an address")
    .option("--expires <iso>", "When the links stop working (ISO timestamp)")
    .option("--json", "JSON instead of a table")
    .example("formdown invite offsite --email ada@example.com --email bob@example.com")
    .example("formdown invite offsite --count 40")
    .action(async (slug: string, opts: Opts) => {
      const settings = resolveSettings(opts);
      const emails = opts.email === undefined ? [] : [opts.email].flat().map(String);
      const count = opts.count === undefined ? 0 : Number(opts.count);
      if (!Number.isInteger(count) || count < 0)
        throw usage("--count must be a whole number of links");
      if (emails.length === 0 && count === 0)
        throw usage("formdown invite needs --email <address> or --count <n>");
      const { invites } = await api<Out<typeof invitesCreated>>(
        settings,
        "POST /api/forms/:slug/invites",
        {
          slug,
          body: {
            ...(emails.length ? { emails } : {}),
            ...(count ? { count } : {}),
            ...(opts.expires ? { expires_at: opts.expires } : {}),
          },
        },
      );
      if (opts.json) return json(invites);
      return out(
        table(
          ["EMAIL", "URL"],
          invites.map((i) => [i.email ?? "", i.url]),
        ),
      );
    });
}
