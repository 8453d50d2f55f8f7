import type { CAC } from "cac";
import type { memberList } from "../../functions/contracts/members.ts";
import { api, type Out, usage } from "../lib/api.ts";
import { resolveSettings } from "../lib/config.ts";
import { json, out, say, table } from "../lib/output.ts";

const HELP = "members actions: add <email> --role owner|editor|viewer, list, remove <id>";

interface Opts {
  role?: string;
  json?: boolean;
  url?: string;
  key?: string;
}

/** `formdown members`: the account's teammates and their roles (SPEC §26). */
export function registerMembers(cli: CAC): void {
  cli
    .command("members <action> [target]", "Teammates and their roles: add, list, remove")
    .option("--role <role>", "For add: owner, editor or viewer (default viewer)")
    .option("--json", "JSON instead of a table")
    .example("formdown members add ana@example.com --role editor")
    .example("formdown members list")
    .example("formdown members remove 3f2c…")
    .action(async (action: string, target: string | undefined, opts: Opts) => {
      const settings = resolveSettings(opts);
      if (action === "add") {
        if (!target) throw usage(`members add needs the email (${HELP})`);
        json(
          await api(settings, "POST /api/members", {
            body: { email: target, role: opts.role ?? "viewer" },
          }),
        );
        return say("Hand the member their api_key: it is shown only once.");
      }
      if (action === "list") {
        const { members }: Out<typeof memberList> = await api(settings, "GET /api/members");
        if (opts.json) return json(members);
        return out(
          table(
            ["ID", "EMAIL", "ROLE", "KEYS", "SINCE"],
            members.map((m) => [m.id, m.email, m.role, m.keys, m.created_at.slice(0, 10)]),
          ),
        );
      }
      if (action === "remove") {
        if (!target)
          throw usage("members remove needs the member id (see `formdown members list`)");
        const done = await api(settings, "DELETE /api/members/:id", { id: target });
        return say(`removed ${target}; ${done.keys_revoked} key(s) revoked`);
      }
      throw usage(HELP);
    });
}
