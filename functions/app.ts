import { Hono } from "hono";
import type { Env } from "./auth.ts";
import type { AppContext } from "./context.ts";
import { errorHandler } from "./http/errors.ts";
import { health } from "./http/health.ts";
import { pathGuard } from "./http/path-guard.ts";
import { publicRoutes } from "./routes/public.ts";
import { shortLinkRoutes } from "./routes/short-links.ts";

/** The one Web-standard application: REST, submit, MCP. Pages are mounted by the runtime entry. */
export function createApp(ctx: AppContext): Hono<Env> {
  const app = new Hono<Env>();
  app.onError(errorHandler(ctx.log));
  app.use(pathGuard);
  app.get("/api/health", (c) => health(ctx, c.req.query("detail") === "1"));
  publicRoutes(app, ctx);
  shortLinkRoutes(app, ctx);
  // The owner's side (the API, MCP, reports, documents) is imported with the first request that
  // reaches it: a cold start (an edge function woken by a health check or a submit) does not wait
  // for its modules, about two thirds of the graph (bench/deno-cold.ts). None of its paths is
  // one of the routes above, so the order in which a request meets them is unchanged.
  let owner: Promise<Hono<Env>> | null = null;
  app.all("*", async (c) => {
    owner ??= import("./owner-app.ts").then((m) => m.ownerApp(ctx));
    return (await owner).fetch(c.req.raw, c.env);
  });
  return app;
}
