// The document is generated from the routes' declarations: every route under /api (and the
// signed /view pages) is documented, and every documented operation is a registered route.
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { frontRoutes } from "../../functions/app.ts";
import type { Env } from "../../functions/auth.ts";
import type { AppContext } from "../../functions/context.ts";
import { formComponents, openApiDocument } from "../../functions/openapi.ts";
import { ownerApp } from "../../functions/owner-app.ts";
import { formJsonSchema } from "../../src/core/form-json-schema.ts";

// registering routes reads nothing from the context; no request here reaches a service
const ctx = {} as AppContext;
/** Routes of the API that are not REST operations, each with its reason. */
const UNDOCUMENTED = new Set([
  // MCP's own protocol (JSON-RPC over streamable HTTP), described by /.well-known/mcp.json
  "POST /api/mcp",
  "GET /api/mcp",
  "DELETE /api/mcp",
  "GET /api/mcp/server-card",
]);
const template = (path: string) =>
  path.replace(/:([A-Za-z0-9_]+)(\{[^/]*\})?/g, (_, name: string) => `{${name}}`);

function registered(): string[] {
  const front = new Hono<Env>();
  frontRoutes(front, ctx);
  const routes = [...front.routes, ...ownerApp(ctx).routes];
  const ops = routes
    .filter((r) => r.method !== "ALL" && /^\/(api|view)\//.test(r.path))
    .map((r) => `${r.method} ${template(r.path)}`);
  return [...new Set(ops)].filter((op) => !UNDOCUMENTED.has(op)).sort();
}

async function documented(): Promise<string[]> {
  const doc = await openApiDocument("https://formdown.test");
  return Object.entries(doc.paths)
    .flatMap(([path, item]) => Object.keys(item ?? {}).map((m) => `${m.toUpperCase()} ${path}`))
    .sort();
}

describe("the OpenAPI document and the routes", () => {
  it("documents every registered route, and registers every documented operation", async () => {
    const [routes, ops] = [registered(), await documented()];
    expect(routes.length).toBeGreaterThan(40);
    expect(routes.filter((r) => !ops.includes(r))).toEqual([]);
    expect(ops.filter((o) => !routes.includes(o))).toEqual([]);
  });

  it("keeps the operationIds clients use", async () => {
    const doc = await openApiDocument("https://formdown.test");
    const id = (path: string, method: string) =>
      (doc.paths[path] as Record<string, { operationId: string }>)[method]!.operationId;
    expect(id("/api/forms/{slug}/responses", "get")).toBe("listResponses");
    expect(id("/api/forms/{slug}/submissions/{id}", "delete")).toBe("deleteSubmission");
    expect(id("/api/forms/{slug}/webhooks/{id}/deliveries/{delivery_id}/retry", "post")).toBe(
      "retryWebhookDelivery",
    );
    expect(id("/view/forms/{form_id}/report", "get")).toBe("viewReport");
  });

  it("states the list bounds and the access password's length from the contracts", async () => {
    const doc = (await openApiDocument("https://formdown.test")) as any;
    const limit = doc.paths["/api/forms/{slug}/responses"].get.parameters.find(
      (p: { name: string }) => p.name === "limit",
    );
    expect(limit.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 200, default: 50 });
    const access =
      doc.paths["/api/forms/{slug}/access"].put.requestBody.content["application/json"];
    expect(access.schema.properties.password).toMatchObject({ minLength: 4, maxLength: 200 });
    expect(access.schema.properties.mode.enum).toEqual([
      "public",
      "link",
      "password",
      "closed",
      "invite",
    ]);
  });

  it("describes the Standard Webhooks events a receiver gets", async () => {
    const doc = (await openApiDocument("https://formdown.test")) as any;
    expect(Object.keys(doc.webhooks)).toEqual([
      "response.created",
      "response.deleted",
      "webhook.test",
    ]);
    const names = doc.webhooks["response.created"].post.parameters.map((p: any) => p.name);
    expect(names).toEqual(["webhook-id", "webhook-timestamp", "webhook-signature"]);
  });

  it("holds the form definition of /api/form.schema.json, only moved into components", () => {
    const components = formComponents() as Record<string, any>;
    const form = structuredClone(components.FormDefinition);
    const items = form.properties.fields.items;
    const name = (ref: string) => ref.slice("#/components/schemas/".length);
    items.oneOf = items.oneOf.map(({ $ref }: { $ref: string }) => {
      const { allOf, ...variant } = components[name($ref)];
      delete components[name($ref)];
      return allOf ? { $ref: allOf[0].$ref, ...variant } : variant;
    });
    delete items.discriminator;
    delete components.FormDefinition;
    const defs = Object.fromEntries(
      Object.entries(components).map(([k, v]) => [k.slice("Form_".length), v]),
    );
    const back = JSON.parse(
      JSON.stringify({ ...form, $defs: defs }).replaceAll(
        '"#/components/schemas/Form_',
        '"#/$defs/',
      ),
    );
    const { $schema: _, $id: __, ...served } = formJsonSchema();
    expect(back).toEqual(served);
  });

  it("answers a query outside its contract with 400 invalid_param naming the parameter", async () => {
    const res = await ownerApp(ctx).request("/view/forms/x/report?period=1y");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: "period must be 7d, 30d, 90d or all.",
      code: "invalid_param",
      details: [{ field: "period", message: "must be 7d, 30d, 90d or all" }],
    });
  });
});
