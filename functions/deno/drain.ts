// The scheduled outbox drain for serverless deployments (e.g. Supabase cron every minute, or
// `Deno.cron`): enqueues due digests, delivers due emails once and exits.
import { createContext } from "../compose.ts";
import { sendDue } from "../insights/sender.ts";

declare const Deno: { env: { toObject(): Record<string, string> } };

const ctx = await createContext(Deno.env.toObject());
try {
  console.log(JSON.stringify(await sendDue(ctx, 200)));
} finally {
  await ctx.db.close();
}
