// The Deno server (Deno Deploy, Supabase Edge Functions, any Deno host): the same fetch
// application over Postgres, with the graceful stop of SPEC §17. Entry points: functions/deno/main.ts
// (`npx deno run -A functions/deno/main.ts`) and supabase/functions/formdown/index.ts.
import { createApp } from "../app.ts";
import { createContext } from "../compose.ts";
import { clientDeadlineMs } from "../db/db.ts";
import { missedErrorReporter } from "../error-line.ts";
import { drainingGate, within } from "../http/draining.ts";
import { configWarnings } from "../http/operations.ts";

declare const Deno: {
  env: { toObject(): Record<string, string> };
  serve(
    options: { port: number; hostname: string; onListen?: (a: { port: number }) => void },
    handler: (req: Request, info: { remoteAddr: { hostname: string } }) => Promise<Response>,
  ): { shutdown(): Promise<void>; finished: Promise<void> };
  addSignalListener(signal: "SIGTERM" | "SIGINT", handler: () => void): void;
  exit(code: number): never;
};

/** Deno's global events for what no handler caught; `preventDefault` keeps the process alive. */
declare function addEventListener(
  type: "error" | "unhandledrejection",
  listener: (event: { error?: unknown; reason?: unknown; preventDefault(): void }) => void,
): void;

declare const EdgeRuntime: { waitUntil?(p: Promise<unknown>): void } | undefined;

/** A request without the path prefix its host puts in front (Supabase: the function's name). */
export function stripPrefix(req: Request, prefix: string): Request {
  const p = prefix.replace(/\/+$/, "");
  if (!p) return req;
  const url = new URL(req.url);
  if (url.pathname !== p && !url.pathname.startsWith(`${p}/`)) return req;
  url.pathname = url.pathname.slice(p.length) || "/";
  return new Request(url, req);
}

let guarded = false;

/**
 * An error a handler missed (an uncaught exception, an unhandled rejection) is logged as one line
 * and survived, never the end of the process (SPEC §23), as functions/node/process-guard.ts does
 * on Node; each such cause is still fixed where it is.
 */
export function guardIsolate(log: (line: string) => void = (line) => console.error(line)): void {
  if (guarded) return;
  guarded = true;
  const report = missedErrorReporter(log);
  addEventListener("error", (event) => {
    event.preventDefault();
    report("an uncaught exception", event.error);
  });
  addEventListener("unhandledrejection", (event) => {
    event.preventDefault();
    report("an unhandled rejection", event.reason);
  });
}

export async function serveFormdown(options: { pathPrefix?: string } = {}): Promise<void> {
  guardIsolate();
  const env = Deno.env.toObject();
  if (!env.DATABASE_URL) {
    console.error(
      "Formdown could not start: the Deno entry needs DATABASE_URL (Postgres or Supabase).",
    );
    Deno.exit(1);
  }
  // The listener opens at once, and a request that comes before the database has answered and
  // been migrated waits for it: on a cold start, the request's arrival overlaps the connection's
  // set-up, as it does for a bare Deno.serve that connects on its first request
  // (bench/deno-cold.ts). A start that fails exits, as before, without answering.
  const starting = createContext(env).then(
    (ctx) => {
      for (const w of configWarnings(ctx.config)) console.error(`Warning: ${w}`);
      // said at start, not waited for: uploads kept where another running instance cannot
      // read them (storage/shared-check.ts), and which pages the static host holds
      import("../storage/shared-check.ts")
        .then((s) => s.sharedStorageProblem(ctx))
        .then(
          (problem) => problem && ctx.log.error(problem),
          (error: unknown) => ctx.log.error("The upload storage could not be checked", error),
        );
      void ctx.pages.refresh();
      return { ctx, app: createApp(ctx) };
    },
    (error: Error) => {
      console.error(`Formdown could not start: ${error.message}`);
      return Deno.exit(1);
    },
  );
  const prefix = options.pathPrefix ?? env.FORMDOWN_PATH_PREFIX ?? "";

  // No timers here: the rate limiter shares its counts from the requests themselves, starting a
  // flush on the first hit after its interval (limiter/rate-limiter.ts). Supabase's Edge Runtime
  // may freeze the isolate once the response is sent, so the flush under way is handed to its
  // waitUntil where there is one.
  const keepAlive = typeof EdgeRuntime === "undefined" ? undefined : EdgeRuntime.waitUntil;
  const gate = drainingGate(async (req: Request, remoteAddr: string) => {
    const { ctx, app } = await starting;
    // the peer address, as the Node adapter gives it, for FORMDOWN_TRUSTED_PROXIES (auth.ts)
    const res = await app.fetch(stripPrefix(req, prefix), { remoteAddr });
    const flushing = ctx.limiter.pending();
    if (flushing && keepAlive) keepAlive.call(EdgeRuntime, flushing);
    return res;
  });
  const server = Deno.serve(
    {
      port: Number(env.PORT ?? 8000),
      hostname: env.HOST ?? "127.0.0.1",
      onListen: ({ port }) => console.log(`URL http://127.0.0.1:${port}`),
    },
    (req, info) => gate.fetch(req, info.remoteAddr.hostname),
  );

  // Graceful stop (SPEC §17): late requests are served with Connection: close (the health probe
  // answers 503), those in flight finish (up to FORMDOWN_DRAIN_MS), the limiter's last counts are
  // shared, then exit 0. Deno cannot close its listener apart from its connections: shutdown()
  // also closes every idle kept-alive connection at once, cutting a request a client is just
  // sending on one. So the listener stays open until nothing has arrived for QUIET_MS (a load
  // balancer, told by the health probe, has taken the instance out), and only then shuts down.
  // When requests keep coming (no balancer took it out), it stops taking them while the drain
  // still has a submit's budget left: from then on a late request is answered 503 `unavailable`
  // with Retry-After, and those in flight finish before the process exits, never cut by it.
  // This entry sends no webhook or email itself (the scheduled drain does), so nothing else is
  // under way.
  const QUIET_MS = 1000;
  let stopping = false;
  async function stop(signal: string) {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: finishing requests and closing the database…`);
    const { ctx } = await starting;
    const { drainMs, dbStatementTimeout } = ctx.config;
    const until = Date.now() + drainMs;
    const finishing = Math.min(drainMs / 2, clientDeadlineMs(dbStatementTimeout) || drainMs);
    void gate.close();
    while (Date.now() < until - finishing && (gate.inFlight() > 0 || gate.quietFor() < QUIET_MS))
      await new Promise((r) => setTimeout(r, 50));
    if (gate.inFlight() > 0 || gate.quietFor() < QUIET_MS) {
      gate.shut();
      await within(gate.close(), Math.max(0, until - Date.now()));
    }
    await within(server.shutdown(), Math.max(0, until - Date.now()));
    gate.shut();
    await ctx.limiter.flush();
    await ctx.db.close();
    Deno.exit(0);
  }
  try {
    Deno.addSignalListener("SIGTERM", () => void stop("SIGTERM"));
    Deno.addSignalListener("SIGINT", () => void stop("SIGINT"));
  } catch {
    // a host without signals (an edge runtime) stops its isolates itself
  }
  await starting;
}
