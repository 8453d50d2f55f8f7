import { z } from "zod";
import { formSchema } from "../src/core/schema.ts";
import { insightPaths } from "./insights/openapi.ts";
import { draftPaths } from "./openapi-drafts.ts";
import { fieldPaths } from "./openapi-fields.ts";
import { operationId } from "./openapi-operation-ids.ts";
import { paths } from "./openapi-paths.ts";
import { publicPaths } from "./openapi-public.ts";
import { responsePaths } from "./openapi-responses.ts";
import { planSchema, versionPaths } from "./openapi-versions.ts";
import { webhookPaths } from "./openapi-webhooks.ts";

/** OpenAPI 3.1 for every endpoint; request bodies come from the same zod schemas (io: input). */
export function openApiDocument(baseUrl: string) {
  const form = z.toJSONSchema(formSchema, { io: "input", unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  delete form.$schema;
  return {
    openapi: "3.1.0",
    info: {
      title: "Formdown API",
      version: "0.1.0",
      description:
        "Forms, surveys and quizzes: create and deploy forms, accept public submissions, read responses, stats, reports and exports.",
      license: { name: "MIT", identifier: "MIT" },
    },
    servers: [{ url: baseUrl }],
    security: [{ bearer: [] }],
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "An API key (fd_…)" },
      },
      schemas: {
        FormDefinition: form,
        Plan: planSchema,
        Error: {
          type: "object",
          required: ["error", "code"],
          properties: {
            error: { type: "string" },
            code: { type: "string" },
            details: {
              anyOf: [
                {
                  type: "array",
                  items: {
                    type: "object",
                    required: ["field", "message"],
                    properties: { field: { type: "string" }, message: { type: "string" } },
                  },
                },
                { $ref: "#/components/schemas/Plan" },
              ],
            },
          },
        },
      },
      responses: Object.fromEntries(
        [
          ["BadRequest", 400],
          ["Unauthorized", 401],
          ["Forbidden", 403],
          ["NotFound", 404],
          ["Conflict", 409],
          ["TooLarge", 413],
          ["Captcha", 422],
          ["RateLimited", 429],
          ["HeadersTooLarge", 431],
        ].map(([name]) => [
          name,
          {
            description: String(name),
            content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
          },
        ]),
      ),
    },
    paths: withOperationIds(
      withUnavailable({
        ...paths,
        ...responsePaths,
        ...publicPaths,
        ...insightPaths,
        ...webhookPaths,
        ...versionPaths,
        ...fieldPaths,
        ...draftPaths,
      }),
    ),
  };
}

/**
 * Every operation that reads the database can answer 503 `unavailable` (with Retry-After) while
 * the database cannot be reached; listed once here rather than on each path.
 */
function withUnavailable(
  all: Record<string, Record<string, unknown>>,
): Record<string, Record<string, unknown>> {
  const unavailable = {
    description: "The database cannot be reached right now (code `unavailable`)",
    headers: {
      "Retry-After": {
        description: "Seconds to wait before trying again",
        schema: { type: "integer" },
      },
    },
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
  };
  const out: Record<string, Record<string, unknown>> = {};
  for (const [path, operations] of Object.entries(all)) {
    if (path === "/api/openapi.json") {
      out[path] = operations;
      continue;
    }
    out[path] = Object.fromEntries(
      Object.entries(operations).map(([method, op]) => {
        const o = op as { responses?: Record<string, unknown> };
        if (!o.responses || "503" in o.responses) return [method, op];
        return [method, { ...o, responses: { ...o.responses, 503: unavailable } }];
      }),
    );
  }
  return out;
}

const METHODS = new Set(["get", "put", "post", "delete", "patch", "head", "options", "trace"]);

/** Every operation gets its operationId (see openapi-operation-ids.ts) unless it names its own. */
function withOperationIds(
  all: Record<string, Record<string, unknown>>,
): Record<string, Record<string, unknown>> {
  return Object.fromEntries(
    Object.entries(all).map(([path, item]) => [
      path,
      Object.fromEntries(
        Object.entries(item).map(([method, op]) =>
          METHODS.has(method) && !(op as { operationId?: string }).operationId
            ? [method, { operationId: operationId(method, path), ...(op as object) }]
            : [method, op],
        ),
      ),
    ]),
  );
}
