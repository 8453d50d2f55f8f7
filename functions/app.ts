import { Hono } from "hono";
import { formJsonSchema } from "../src/core/form-json-schema.ts";
import type { Env } from "./auth.ts";
import type { AppContext } from "./context.ts";
import { errorHandler, failureResponse } from "./http/errors.ts";
import { health } from "./http/health.ts";
import { pathGuard } from "./http/path-guard.ts";
import { insightRoutes } from "./insights/routes.ts";
import { mcpRoutes } from "./mcp/route.ts";
import { openApiDocument } from "./openapi.ts";
import { accountRoutes } from "./routes/accounts.ts";
import { fieldRoutes } from "./routes/fields.ts";
import { formRoutes } from "./routes/forms.ts";
import { publicRoutes } from "./routes/public.ts";
import { responseRoutes } from "./routes/responses.ts";
import { shortLinkRoutes } from "./routes/short-links.ts";
import { versionRoutes } from "./routes/versions.ts";
import { viewRoutes } from "./routes/views.ts";
import { webhookRoutes } from "./routes/webhooks.ts";

/** The one Web-standard application: REST, submit, MCP. Pages are mounted by the runtime entry. */
export function createApp(ctx: AppContext): Hono<Env> {
  const app = new Hono<Env>();
  app.onError(errorHandler(ctx.log));
  app.use(pathGuard);
  app.get("/api/health", (c) => health(ctx, c.req.query("detail") === "1"));
  app.get("/api/openapi.json", (c) => {
    c.header("access-control-allow-origin", "*");
    return c.json(openApiDocument(ctx.config.baseUrl));
  });
  app.get("/api/form.schema.json", (c) => {
    c.header("access-control-allow-origin", "*");
    c.header("cache-control", "public, max-age=300");
    return c.json(formJsonSchema());
  });
  publicRoutes(app, ctx);
  accountRoutes(app, ctx);
  formRoutes(app, ctx);
  fieldRoutes(app, ctx);
  versionRoutes(app, ctx);
  responseRoutes(app, ctx);
  insightRoutes(app, ctx);
  webhookRoutes(app, ctx);
  mcpRoutes(app, ctx);
  viewRoutes(app, ctx);
  app.all("/api/*", () => failureResponse({ code: "not_found", error: "No such endpoint." }));
  shortLinkRoutes(app, ctx);
  return app;
}
