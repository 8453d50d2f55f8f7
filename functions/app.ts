import { Hono } from "hono";
import type { Env } from "./auth.ts";
import type { AppContext } from "./context.ts";
import { front, one } from "./contracts/front-ops.ts";
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
  frontRoutes(app, ctx);
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

/** What a cold start serves without the owner's side: health, respondents' endpoints, links. */
export function frontRoutes(app: Hono<Env>, ctx: AppContext): void {
  app.get(
    "/api/health",
    front("getHealth"),
    // the detail is an operator's (SPEC §22): only with a valid key; without one, the plain answer
    async (c) =>
      health(
        ctx,
        one(c, "detail", ["1"]) === "1" &&
          (await (await import("./auth.ts")).authenticate(ctx, c.req.header("authorization")).then(
            () => true,
            () => false,
          )),
      ),
  );
  publicRoutes(app, ctx);
  shortLinkRoutes(app, ctx);
}
