// GET /api/openapi.json, generated from the routes' declarations (functions/contracts/): each
// route's describeRoute and validators are its one description. Declared here once: the info,
// the security scheme, the named error answers, and the form definition (/api/form.schema.json).
import { Hono } from "hono";
import { describeRoute, generateSpecs } from "hono-openapi";
import { z } from "zod";
import { formJsonSchema } from "../src/core/form-json-schema.ts";
import { frontRoutes } from "./app.ts";
import type { Env } from "./auth.ts";
import type { AppContext } from "./context.ts";
import { errorAnswer, errorBody, STATUS } from "./contracts/common.ts";
import type { FrontOperation } from "./contracts/front-ops.ts";
import { frontOperations } from "./contracts/public.ts";
import { webhookEvents } from "./contracts/webhooks.ts";
import { ownerRoutes } from "./owner-app.ts";

type Doc = Awaited<ReturnType<typeof generateSpecs>>;
let generated: Promise<Doc> | null = null;

/** OpenAPI 3.1 for every endpoint; generated once per process. */
export async function openApiDocument(baseUrl: string): Promise<Doc> {
  generated ??= generate();
  return { ...(await generated), servers: [{ url: baseUrl }] };
}

// biome-ignore lint/suspicious/noExplicitAny: a generated JSON Schema, walked by its known keys
type Json = Record<string, any>;
/**
 * /api/form.schema.json as components: its `$defs` become `Form_<name>`, and each field type
 * `Form_field_<type>`, told apart by a discriminator on `type` (so tools see the variants exclude
 * each other). src/core stays the one definition; openapi.test.ts checks the two are equal.
 */
export function formComponents(): Record<string, Json> {
  const { $defs = {}, $schema: _, $id: __, ...form } = formJsonSchema() as Json;
  const out: Json = JSON.parse(
    JSON.stringify({ FormDefinition: form, ...prefixed($defs, "Form_") }).replaceAll(
      '"#/$defs/',
      '"#/components/schemas/Form_',
    ),
  );
  const items = out.FormDefinition.properties.fields.items;
  const variants = Object.fromEntries(
    // `$ref` beside other keywords as `allOf`, the same in JSON Schema 2020-12, which tools read
    (items.oneOf as Json[]).map(({ $ref, ...v }) => [
      v.properties.type.const as string,
      $ref ? { allOf: [{ $ref }], ...v } : v,
    ]),
  );
  const ref = (type: string) => `#/components/schemas/Form_field_${type}`;
  items.oneOf = Object.keys(variants).map((type) => ({ $ref: ref(type) }));
  items.discriminator = {
    propertyName: "type",
    mapping: Object.fromEntries(Object.keys(variants).map((type) => [type, ref(type)])),
  };
  return { ...out, ...prefixed(variants, "Form_field_") };
}
const prefixed = (defs: object, prefix: string) =>
  Object.fromEntries(Object.entries(defs).map(([k, v]) => [`${prefix}${k}`, v]));

async function generate(): Promise<Doc> {
  const app = new Hono<Env>();
  // registering a route only closes over the context: the document reads nothing from it
  const ctx = {} as AppContext;
  frontRoutes(app, ctx);
  describeFront(app);
  ownerRoutes(app, ctx);
  const doc = await generateSpecs(app, {
    excludeStaticFile: false,
    defaultValidationErrorResponse: { $ref: "#/components/responses/BadRequest" } as never,
    documentation: {
      info: {
        title: "Formdown API",
        version: "0.1.0",
        description:
          "Forms, surveys and quizzes: create and deploy forms, accept public submissions, read responses, stats, reports and exports.",
        license: { name: "MIT", identifier: "MIT" },
      },
      security: [{ bearer: [] }],
      webhooks: webhookEvents as never,
      components: {
        securitySchemes: {
          bearer: { type: "http", scheme: "bearer", description: "An API key (fd_…)" },
        },
        schemas: {
          ...formComponents(),
          Error: z.toJSONSchema(errorBody, { io: "input" }) as object,
        },
        responses: Object.fromEntries(Object.keys(STATUS).map((name) => [name, errorAnswer(name)])),
      },
    },
  });
  return { ...doc, paths: withUnavailable(doc.paths) };
}

/**
 * The routes a cold start serves carry only `front(operationId)` (no zod on that path): each is
 * given its description, declared in contracts/public.ts, before the document is generated.
 */
function describeFront(app: Hono<Env>): void {
  const unused = new Set(Object.keys(frontOperations));
  for (const { handler } of app.routes) {
    const id = (handler as Partial<FrontOperation>).frontOperation;
    if (id === undefined) continue;
    const spec = frontOperations[id];
    if (!spec) throw new Error(`front("${id}") has no description in contracts/public.ts`);
    Object.assign(handler, describeRoute(spec));
    unused.delete(id);
  }
  if (unused.size) throw new Error(`No front route for ${[...unused].join(", ")}`);
}

/**
 * Every operation that reads the database can answer 503 `unavailable` (with Retry-After) while
 * the database cannot be reached; listed once here rather than on each route.
 */
function withUnavailable(paths: Doc["paths"]): Doc["paths"] {
  const unavailable = {
    ...errorAnswer("The database cannot be reached right now (code `unavailable`)"),
    headers: {
      "Retry-After": {
        description: "Seconds to wait before trying again",
        schema: { type: "integer" },
      },
    },
  };
  for (const [path, item] of Object.entries(paths)) {
    if (path === "/api/openapi.json") continue;
    for (const op of Object.values(
      item as Record<string, { responses?: Record<string, unknown> }>,
    )) {
      if (op?.responses && !("503" in op.responses)) op.responses["503"] = unavailable;
    }
  }
  return paths;
}
