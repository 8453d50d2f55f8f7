import { existsSync } from "node:fs";
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { CAC } from "cac";
import { api, usage } from "../lib/api.ts";
import { checkoutConfigPath, configPath, resolveSettings, withScheme } from "../lib/config.ts";
import { json, out, say, table } from "../lib/output.ts";

export function registerAccounts(cli: CAC): void {
  cli
    .command(
      "accounts <action> <handler>",
      "Create an account (action: create; needs the admin token)",
    )
    .option("--email <email>", "The owner's email")
    .option("--admin-token <token>", "FORMDOWN_ADMIN_TOKEN of the server")
    .example(
      "formdown accounts create acme --email owner@acme.com --admin-token $FORMDOWN_ADMIN_TOKEN",
    )
    .action(
      async (
        action: string,
        handler: string,
        opts: { email?: string; adminToken?: string; url?: string; key?: string },
      ) => {
        if (action !== "create") throw usage('the only accounts action is "create"');
        const token = opts.adminToken ?? process.env.FORMDOWN_ADMIN_TOKEN;
        if (!token) throw usage("pass --admin-token or set FORMDOWN_ADMIN_TOKEN");
        const body = { handler, ...(opts.email ? { email: opts.email } : {}) };
        const created = await api(resolveSettings(opts), "POST /api/accounts", { body, token });
        json(created);
        say("Keep the api_key: it is shown only once.");
      },
    );
}

type KeyOptions = { name?: string; scope?: string | string[]; form?: string | string[] };

const list = (value: string | string[] | undefined) =>
  value === undefined ? undefined : Array.isArray(value) ? value.map(String) : [String(value)];

/** `POST /api/keys`'s body from the flags; the server checks the names. */
function newKeyBody(opts: KeyOptions) {
  const [scopes, forms] = [list(opts.scope), list(opts.form)];
  return {
    ...(opts.name ? { name: opts.name } : {}),
    ...(scopes ? { scopes } : {}),
    ...(forms ? { forms } : {}),
  };
}

export function registerKeys(cli: CAC): void {
  cli
    .command("keys <action> [id]", "Manage API keys: create, list, revoke <id>")
    .option("--name <name>", "A name for a new key")
    .option("--scope <scope>", "What a new key may do: read, write or admin (default admin)")
    .option("--form <slug>", "Limit a new key to this form (repeat for several)")
    .option("--json", "JSON output")
    .example("formdown keys create --name ci")
    .example("formdown keys create --name pr-plans --scope read")
    .example("formdown keys create --scope write --form contact --form feedback")
    .example("formdown keys revoke 3f2c…")
    .action(
      async (
        action: string,
        id: string | undefined,
        opts: KeyOptions & { json?: boolean; url?: string; key?: string },
      ) => {
        const settings = resolveSettings(opts);
        if (action === "create") {
          json(await api(settings, "POST /api/keys", { body: newKeyBody(opts) }));
          return say("Keep the api_key: it is shown only once.");
        }
        if (action === "list") {
          const { keys } = await api(settings, "GET /api/keys");
          if (opts.json) return json(keys);
          return out(
            table(
              ["ID", "PREFIX", "NAME", "SCOPES", "FORMS", "CREATED", "REVOKED"],
              keys.map(
                (k: {
                  id: string;
                  prefix: string;
                  name: string | null;
                  scopes: string[];
                  forms: string[] | null;
                  created_at: string;
                  revoked_at: string | null;
                }) => [
                  k.id,
                  `${k.prefix}…`,
                  k.name ?? "",
                  k.scopes.join(","),
                  k.forms?.join(",") ?? "all",
                  k.created_at.slice(0, 10),
                  k.revoked_at?.slice(0, 10) ?? "",
                ],
              ),
            ),
          );
        }
        if (action === "revoke") {
          if (!id) throw usage("keys revoke needs the key id (see `formdown keys list`)");
          await api(settings, "DELETE /api/keys/:id", { id });
          return say(`revoked ${id}`);
        }
        throw usage("keys actions: create, list, revoke <id>");
      },
    );
}

export function registerLogin(cli: CAC): void {
  cli
    .command("login", "Save a server URL and API key for later commands")
    .option(
      "--here",
      "For this checkout only (.formdown/config.json, ignored by git): it wins over the per-user one",
    )
    .example("formdown login --url https://forms.example.com --key fd_…")
    .example("formdown login --here --url https://staging.example.com --key fd_…")
    .action(async (opts: { url?: string; key?: string; here?: boolean }) => {
      if (!opts.url || !opts.key) throw usage("login needs --url and --key");
      const settings = { url: withScheme(opts.url), key: opts.key, keySource: "--key" };
      await api(settings, "GET /api/forms");
      const path = opts.here ? checkoutConfigPath() : configPath();
      await mkdir(dirname(path), { recursive: true });
      await writeFile(
        path,
        `${JSON.stringify({ url: settings.url, key: settings.key }, null, 2)}\n`,
        { mode: 0o600 },
      );
      await chmod(path, 0o600);
      // a checkout without formdown init's .gitignore: the key is never committed by accident
      const ignore = join(dirname(path), ".gitignore");
      if (opts.here && !existsSync(ignore)) await writeFile(ignore, "config.json\n");
      say(`Saved to ${path}.`);
    });
}
