import type { CAC } from "cac";
import { CliError } from "../lib/api.ts";
import { json, say } from "../lib/output.ts";

// Operator commands that work on the database itself (DATABASE_URL), not through the API: they
// run on the Node the project brings (`npx formdown …`), never a bare `node file.ts` the host's
// Node 20 cannot run. They load the server's code from the checkout (a computed specifier keeps
// the stand-alone CLI's bundler away from it).

async function fromCheckout<T>(path: string, command: string): Promise<T> {
  return import(new URL(`../../${path}`, import.meta.url).href).catch(() => {
    throw new CliError(
      `formdown ${command} runs inside a Formdown checkout (npm ci first)`,
      "usage",
      2,
    );
  }) as Promise<T>;
}

function databaseUrl(command: string): string {
  const url = process.env.DATABASE_URL;
  if (!url)
    throw new CliError(
      `formdown ${command} needs DATABASE_URL (the Postgres database)`,
      "usage",
      2,
    );
  return url;
}

export function registerOperate(cli: CAC): void {
  cli
    .command("migrate", "Apply the database migrations to DATABASE_URL (a deploy step)")
    .example("DATABASE_URL=postgres://… npx formdown migrate")
    .action(async () => {
      const url = databaseUrl("migrate");
      const { openPostgres } = await fromCheckout<typeof import("../../functions/db/db.ts")>(
        "functions/db/db.ts",
        "migrate",
      );
      const { migrate } = await fromCheckout<typeof import("../../functions/db/migrate.ts")>(
        "functions/db/migrate.ts",
        "migrate",
      );
      const db = openPostgres(url, 1);
      try {
        const applied = await migrate(db);
        say(applied.length ? `Applied ${applied.join(", ")}.` : "The database is up to date.");
      } catch (error) {
        throw new CliError(`Migration failed: ${(error as Error).message}`, "failed", 1);
      } finally {
        await db.close();
      }
    });

  cli
    .command(
      "drain",
      "Send the due emails and webhook deliveries until none is due or FORMDOWN_DRAIN_BUDGET_MS is spent",
    )
    .option("--every <seconds>", "Keep running, draining every so many seconds (no cron at hand)")
    .example("DATABASE_URL=postgres://… npx formdown drain")
    .example("npx formdown drain --every 60")
    .action(async (opts: { every?: number }) => {
      databaseUrl("drain");
      const { createContext } = await fromCheckout<typeof import("../../functions/compose.ts")>(
        "functions/compose.ts",
        "drain",
      );
      const { drainDue } = await fromCheckout<typeof import("../../functions/drain-due.ts")>(
        "functions/drain-due.ts",
        "drain",
      );
      const { configWarnings } = await fromCheckout<
        typeof import("../../functions/http/operations.ts")
      >("functions/http/operations.ts", "drain");
      // its notes go to stderr: stdout is the drain's JSON
      const log = { info: (m: string) => console.error(m), error: (m: string) => console.error(m) };
      const ctx = await createContext(process.env, { log }).catch((error: Error) => {
        throw new CliError(error.message, "usage", 2);
      });
      // links in the emails it sends are built from FORMDOWN_BASE_URL
      for (const w of configWarnings(ctx.config)) say(`⚠ ${w}`);
      try {
        if (!opts.every) {
          json(await drainDue(ctx));
          return;
        }
        let stop = false;
        const wake: { fn?: () => void } = {};
        const quit = () => {
          stop = true;
          wake.fn?.();
        };
        process.once("SIGTERM", quit);
        process.once("SIGINT", quit);
        while (!stop) {
          json(await drainDue(ctx));
          await new Promise<void>((r) => {
            wake.fn = r;
            setTimeout(r, Number(opts.every) * 1000).unref();
          });
        }
      } finally {
        await ctx.db.close();
      }
    });
}
