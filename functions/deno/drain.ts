// The scheduled drain for serverless deployments (e.g. Supabase cron every minute, or
// `Deno.cron`): enqueues due digests, delivers due emails and due webhooks once and exits. The
// two run side by side, so a hanging webhook receiver cannot hold the emails back.
import { createContext } from "../compose.ts";
import { sendDue } from "../insights/sender.ts";
import { drainWebhooks } from "../webhooks/sender.ts";

declare const Deno: { env: { toObject(): Record<string, string> } };

const ctx = await createContext(Deno.env.toObject());
try {
  const [outbox, webhooks] = await Promise.all([sendDue(ctx, 200), drainWebhooks(ctx, 200)]);
  console.log(JSON.stringify({ ...outbox, webhooks }));
} finally {
  await ctx.db.close();
}
