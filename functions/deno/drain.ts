// The scheduled drain on Deno (functions/drain-due.ts): `npx deno run -A functions/deno/drain.ts`
// delivers what is due and exits (Supabase: the `formdown-drain` function, called every minute by
// pg_cron — see the README). With FORMDOWN_DRAIN_SCHEDULE (a cron expression, e.g. `* * * * *`)
// it stays running and drains on that schedule with Deno.cron (Deno Deploy; locally with
// `--unstable-cron`).
import { createContext } from "../compose.ts";
import { drainDue } from "../drain-due.ts";
import { configWarnings } from "../http/operations.ts";

declare const Deno: {
  env: { toObject(): Record<string, string> };
  cron?(name: string, schedule: string, handler: () => Promise<void>): Promise<void>;
};

const env = Deno.env.toObject();
const ctx = await createContext(env);
// links in the emails it sends are built from FORMDOWN_BASE_URL
for (const w of configWarnings(ctx.config)) console.error(`Warning: ${w}`);
const once = async () => console.log(JSON.stringify(await drainDue(ctx)));

if (env.FORMDOWN_DRAIN_SCHEDULE) {
  if (!Deno.cron)
    throw new Error("FORMDOWN_DRAIN_SCHEDULE needs Deno.cron (deno run --unstable-cron).");
  console.log(`Draining on the schedule ${env.FORMDOWN_DRAIN_SCHEDULE}.`);
  await Deno.cron("formdown drain", env.FORMDOWN_DRAIN_SCHEDULE, once);
} else {
  try {
    await once();
  } finally {
    await ctx.db.close();
  }
}
