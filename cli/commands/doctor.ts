import type { CAC } from "cac";
import { CliError } from "../lib/api.ts";
import { resolveSettings } from "../lib/config.ts";
import { out } from "../lib/output.ts";

/** Checks a deployment's configuration and connectivity, and says what is wrong in plain words. */
export function registerDoctor(cli: CAC): void {
  cli
    .command(
      "doctor",
      "Check the server URL, key, API, MCP discovery, anti-bot and background sending of a deployment",
    )
    .option("--send-test <address>", "Also send a test email to this address through the server")
    .example("formdown doctor --url https://forms.example.com")
    .example("formdown doctor --send-test me@example.com")
    .action(async (opts: { url?: string; key?: string; sendTest?: string }) => {
      const settings = resolveSettings(opts);
      const problems: string[] = [];
      const check = async (label: string, run: () => Promise<string>) => {
        try {
          out(`✓ ${label}: ${await run()}`);
        } catch (error) {
          problems.push(label);
          out(`✗ ${label}: ${(error as Error).message}`);
        }
      };
      const get = async (path: string, headers: Record<string, string> = {}) => {
        const res = await fetch(`${settings.url}${path}`, { headers, redirect: "manual" }).catch(
          () => {
            throw new Error(
              `cannot reach ${settings.url} (is the server running? is the URL right?)`,
            );
          },
        );
        // read whole here: a body left unread holds its connection, and the process, open
        const text = await res.text();
        const empty = [204, 205, 304].includes(res.status);
        return new Response(empty ? null : text, { status: res.status, headers: res.headers });
      };
      await check("server", async () => {
        const res = await get("/api/health");
        if (!res.ok)
          throw new Error(
            `${settings.url}/api/health answered ${res.status}; is this a Formdown server?`,
          );
        return `${settings.url} is up`;
      });
      // warnings, not failures: the deployment answers, but something will go unnoticed
      const health = await get(
        "/api/health?detail=1",
        settings.key ? { authorization: `Bearer ${settings.key}` } : {},
      )
        .then((r) => r.json())
        .catch(() => ({}));
      const {
        overdue,
        warnings = [],
        errors = [],
      } = health as {
        overdue?: { emails: number; deliveries: number };
        warnings?: string[];
        errors?: string[];
      };
      // failures: something already fails for respondents or receivers
      for (const e of errors)
        await check(e.startsWith("Uploads") ? "upload storage" : "webhook key", async () => {
          throw new Error(e);
        });
      if (overdue && overdue.emails + overdue.deliveries > 0)
        warnings.unshift(
          `${overdue.emails} email(s) and ${overdue.deliveries} webhook deliveries have been due for over 5 minutes: no sender is running (serverless: schedule the drain, see the README)`,
        );
      for (const w of warnings) out(`⚠ ${w}`);
      if (overdue && warnings.length === 0) out("✓ background sending: nothing overdue");
      await check("API key", async () => {
        if (!settings.key)
          throw new Error("no key found: pass --key, set FORMDOWN_API_KEY or run `formdown login`");
        const res = await get("/api/forms", { authorization: `Bearer ${settings.key}` });
        if (res.status === 401)
          throw new Error(
            `the key from ${settings.keySource} is not accepted (revoked, or for another server)`,
          );
        if (!res.ok) throw new Error(`listing forms answered ${res.status}`);
        return `accepted (${((await res.json()) as unknown[]).length} forms, key from ${settings.keySource})`;
      });
      await check("OpenAPI", async () => {
        const res = await get("/api/openapi.json");
        if (!res.ok) throw new Error(`answered ${res.status}`);
        return "published";
      });
      await check("MCP discovery", async () => {
        const res = await get("/.well-known/mcp.json");
        if (!res.ok) throw new Error(`/.well-known/mcp.json answered ${res.status}`);
        const doc = (await res.json()) as { endpoint: string; tools: unknown[] };
        return `${doc.tools.length} tools at ${doc.endpoint}`;
      });
      await check("anti-bot", async () => {
        const res = await get("/api/challenge");
        return res.ok
          ? "ALTCHA (self-hosted)"
          : "Turnstile (TURNSTILE_SECRET_KEY set on the server)";
      });
      if (opts.sendTest !== undefined)
        await check("test email", async () => {
          const res = await fetch(`${settings.url}/api/outbox/test`, {
            method: "POST",
            headers: {
              authorization: `Bearer ${settings.key ?? ""}`,
              "content-type": "application/json",
            },
            body: JSON.stringify({ to: String(opts.sendTest) }),
          }).catch(() => {
            throw new Error(`cannot reach ${settings.url}`);
          });
          const answer = (await res.json().catch(() => ({}))) as {
            sent?: boolean;
            via?: string;
            error?: string;
          };
          if (!res.ok) throw new Error(answer.error ?? `answered ${res.status}`);
          if (!answer.sent) throw new Error(answer.error ?? `not sent (${answer.via})`);
          return `sent to ${opts.sendTest} through ${answer.via === "smtp" ? "SMTP" : "Postmark"}`;
        });
      if (problems.length > 0)
        throw new CliError(`${problems.length} check(s) failed: ${problems.join(", ")}`, "doctor");
    });
}
