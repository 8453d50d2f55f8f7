// Serverless entry for Deno runtimes (Supabase Edge Functions, Deno Deploy): the same fetch
// application over Postgres. Configure with the same environment variables as the Node server.
import { createApp } from "../app.ts";
import { createContext } from "../compose.ts";

declare const Deno: {
  env: { toObject(): Record<string, string> };
  serve(
    options: { port: number; hostname: string; onListen?: (a: { port: number }) => void },
    handler: (req: Request) => Response | Promise<Response>,
  ): unknown;
};

const env = Deno.env.toObject();
if (!env.DATABASE_URL)
  throw new Error("The serverless entry needs DATABASE_URL (Postgres or Supabase).");
const ctx = await createContext(env);
const app = createApp(ctx);

// No timers here: the rate limiter shares its counts from the requests themselves, starting a
// flush on the first hit after its interval (limiter/rate-limiter.ts). Supabase's Edge Runtime
// may freeze the isolate once the response is sent, so the flush under way is handed to its
// waitUntil where there is one.
declare const EdgeRuntime: { waitUntil?(p: Promise<unknown>): void } | undefined;
const keepAlive = typeof EdgeRuntime === "undefined" ? undefined : EdgeRuntime.waitUntil;
async function handle(req: Request): Promise<Response> {
  const res = await app.fetch(req);
  const flushing = ctx.limiter.pending();
  if (flushing && keepAlive) keepAlive.call(EdgeRuntime, flushing);
  return res;
}
Deno.serve(
  {
    port: Number(env.PORT ?? 8000),
    hostname: env.HOST ?? "127.0.0.1",
    onListen: ({ port }) => console.log(`URL http://127.0.0.1:${port}`),
  },
  handle,
);
