// Supabase Edge Function `formdown-drain`: one run of the scheduled drain (functions/drain-due.ts)
// per call. pg_cron calls it every minute (README, "Supabase"); only a call carrying
// FORMDOWN_ADMIN_TOKEN as its bearer runs it. Run as a process of its own (`deno run -A
// supabase/functions/formdown-drain/index.ts`), it listens where the Deno entry does: PORT
// (default 8000) on HOST (default 127.0.0.1).
import { createContext } from "../../../functions/compose.ts";
import { drainDue } from "../../../functions/drain-due.ts";

declare const Deno: {
  env: { toObject(): Record<string, string> };
  serve(
    options: { port: number; hostname: string; onListen?: (a: { port: number }) => void },
    handler: (req: Request) => Promise<Response>,
  ): unknown;
};

const env = Deno.env.toObject();
const ctx = await createContext(env);

Deno.serve(
  {
    port: Number(env.PORT ?? 8000),
    hostname: env.HOST ?? "127.0.0.1",
    onListen: ({ port }) => console.log(`URL http://127.0.0.1:${port}`),
  },
  async (req) => {
    const token = env.FORMDOWN_ADMIN_TOKEN;
    if (!token || req.headers.get("authorization") !== `Bearer ${token}`)
      return Response.json(
        { error: "Send FORMDOWN_ADMIN_TOKEN as the bearer.", code: "unauthorized" },
        { status: 401 },
      );
    return Response.json(await drainDue(ctx));
  },
);
