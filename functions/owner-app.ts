import { Hono } from "hono";
import { formJsonSchema } from "../src/core/form-json-schema.ts";
import type { Env } from "./auth.ts";
import type { AppContext } from "./context.ts";
import { errors, json, op, PUBLIC } from "./contracts/common.ts";
import { document } from "./contracts/public.ts";
import { errorHandler, failureResponse } from "./http/errors.ts";
import { mcpRoutes } from "./mcp/route.ts";
import { openApiDocument } from "./openapi.ts";
import { resultsRoutes } from "./results/routes.ts";
import { accountRoutes } from "./routes/accounts.ts";
import { auditRoutes } from "./routes/audit.ts";
import { deployRoutes } from "./routes/deploys.ts";
import { fieldRoutes } from "./routes/fields.ts";
import { formRoutes } from "./routes/forms.ts";
import { inviteRoutes } from "./routes/invites.ts";
import { memberRoutes } from "./routes/members.ts";
import { outboxRoutes } from "./routes/outbox.ts";
import { reportRoutes } from "./routes/reports.ts";
import { responseRoutes } from "./routes/responses.ts";
import { versionRoutes } from "./routes/versions.ts";
import { viewRoutes } from "./routes/views.ts";
import { webhookRoutes } from "./routes/webhooks.ts";

/**
 * Every route of the application a respondent's page does not call: the documents, the API an
 * owner or agent calls with a key, MCP, the signed report views. createApp (app.ts) hands it the
 * requests its own routes do not answer, loading this module with the first of them.
 */
export function ownerApp(ctx: AppContext): Hono<Env> {
  const app = new Hono<Env>();
  app.onError(errorHandler(ctx.log));
  ownerRoutes(app, ctx);
  mcpRoutes(app, ctx);
  // teammates' results in the browser (SPEC §26): HTML pages, outside the API's document
  resultsRoutes(app, ctx);
  app.all("/api/*", () => failureResponse({ code: "not_found", error: "No such endpoint." }));
  return app;
}

/** The owner's REST routes, each declared once (functions/contracts/): what openapi.ts documents. */
export function ownerRoutes(app: Hono<Env>, ctx: AppContext): void {
  // what any request can get before a route sees it: malformed HTTP 400, oversized headers 431
  const parser = errors("BadRequest", "HeadersTooLarge");
  app.get(
    "/api/openapi.json",
    op("getOpenApiDocument", "This document", { 200: json(document), ...parser }, PUBLIC),
    async (c) => {
      c.header("access-control-allow-origin", "*");
      return c.json(await openApiDocument(ctx.config.baseUrl));
    },
  );
  app.get(
    "/api/form.schema.json",
    op(
      "getFormJsonSchema",
      "The complete form definition as JSON Schema 2020-12 (also MCP resource formdown://schema/form)",
      { 200: json(document, "A JSON Schema document"), ...parser },
      PUBLIC,
    ),
    (c) => {
      c.header("access-control-allow-origin", "*");
      c.header("cache-control", "public, max-age=300");
      return c.json(formJsonSchema());
    },
  );
  accountRoutes(app, ctx);
  memberRoutes(app, ctx);
  auditRoutes(app, ctx);
  formRoutes(app, ctx);
  deployRoutes(app, ctx);
  fieldRoutes(app, ctx);
  versionRoutes(app, ctx);
  responseRoutes(app, ctx);
  reportRoutes(app, ctx);
  outboxRoutes(app, ctx);
  webhookRoutes(app, ctx);
  inviteRoutes(app, ctx);
  viewRoutes(app, ctx);
}
