// The endpoints of the REST API, described by hand where zod has no schema of its own.
type Schema = Record<string, unknown>;
const json = (schema: Schema, description = "OK") => ({
  description,
  content: { "application/json": { schema } },
});
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const err = (...names: string[]) =>
  Object.fromEntries(names.map((n) => [STATUS[n], { $ref: `#/components/responses/${n}` }]));
const STATUS: Record<string, string> = {
  BadRequest: "400",
  Unauthorized: "401",
  Forbidden: "403",
  NotFound: "404",
  Conflict: "409",
  TooLarge: "413",
  Captcha: "422",
  RateLimited: "429",
};
const obj = (properties: Record<string, Schema>, required = Object.keys(properties)): Schema => ({
  type: "object",
  properties,
  required,
});
const str = { type: "string" };
const int = { type: "integer" };
const num = { type: "number" };
const slug = { name: "slug", in: "path", required: true, schema: str };
const id = { name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } };
const q = (name: string, schema: Schema = str) => ({ name, in: "query", required: false, schema });
const owner = err("Unauthorized", "Forbidden", "NotFound", "RateLimited");
const pub = { security: [] };

const stats = obj({ views: int, responses: int, submissions: int });
const summary = obj({
  slug: str,
  title: str,
  type: str,
  status: { enum: ["live", "closed"] },
  created_at: str,
  public_url: str,
  stats,
});
const detail = {
  type: "object",
  required: [
    "form_id",
    "slug",
    "title",
    "status",
    "public_url",
    "short_url",
    "created_at",
    "updated_at",
    "config",
    "stats",
  ],
  properties: {
    form_id: str,
    slug: str,
    title: str,
    type: str,
    status: str,
    public_url: str,
    short_url: str,
    access: { type: "object" },
    file_path: { type: ["string", "null"] },
    commit_sha: { type: ["string", "null"] },
    created_at: str,
    updated_at: str,
    config: { type: "object" },
    stats,
  },
};
const record = {
  type: "object",
  required: ["id", "submitted_at", "payload"],
  properties: { id: str, submitted_at: str, payload: { type: "object" }, score: {} },
};
const created = obj({
  slug: str,
  form_slug: str,
  status: str,
  public_url: str,
  short_url: str,
  form_id: str,
});
const deployed = obj({
  result: { enum: ["created", "updated", "unchanged"] },
  slug: str,
  form_id: str,
  url: str,
});
const formBody = {
  required: true,
  content: {
    "application/json": { schema: { oneOf: [ref("FormDefinition"), obj({ markdown: str })] } },
  },
};
const range = [q("since"), q("until")];

export const paths: Record<string, Record<string, unknown>> = {
  "/api/health": {
    get: {
      ...pub,
      summary: "Liveness",
      responses: { 200: json(obj({ ok: { type: "boolean" } })) },
    },
  },
  "/api/openapi.json": {
    get: { ...pub, summary: "This document", responses: { 200: json({ type: "object" }) } },
  },
  "/api/accounts": {
    post: {
      summary: "Create an account (admin token)",
      requestBody: {
        required: true,
        content: { "application/json": { schema: obj({ handler: str, email: str }, ["handler"]) } },
      },
      responses: {
        201: json(obj({ account_id: str, handler: str, api_key: str })),
        ...err("BadRequest", "Unauthorized", "NotFound", "Conflict"),
      },
    },
  },
  "/api/keys": {
    get: {
      summary: "List your API keys",
      responses: {
        200: json(obj({ keys: { type: "array", items: { type: "object" } } })),
        ...owner,
      },
    },
    post: {
      summary: "Create another API key",
      responses: {
        201: json(obj({ id: str, api_key: str, prefix: str, name: {}, created_at: str })),
        ...err("BadRequest", "Unauthorized", "RateLimited"),
      },
    },
  },
  "/api/keys/{id}": {
    delete: {
      summary: "Revoke a key",
      parameters: [id],
      responses: { 204: { description: "Revoked" }, ...owner },
    },
  },
  "/api/forms": {
    get: {
      summary: "List your forms",
      responses: { 200: json({ type: "array", items: summary }), ...owner },
    },
    post: {
      summary: "Create a form",
      requestBody: formBody,
      responses: {
        201: json(created),
        ...err("BadRequest", "Unauthorized", "Conflict", "TooLarge", "RateLimited"),
      },
    },
  },
  "/api/forms/{slug}": {
    parameters: [slug],
    get: { summary: "A form's definition and stats", responses: { 200: json(detail), ...owner } },
    patch: {
      summary: "Change part of a form",
      requestBody: {
        required: true,
        content: { "application/json": { schema: { type: "object" } } },
      },
      responses: { 200: json(detail), ...err("BadRequest"), ...owner },
    },
    put: {
      summary: "Create or update a form in place (deploy)",
      requestBody: formBody,
      responses: { 200: json(deployed), 201: json(deployed), ...err("BadRequest"), ...owner },
    },
    delete: {
      summary: "Delete a form, its responses, file and uploads",
      responses: { 204: { description: "Deleted" }, ...owner },
    },
  },
  "/api/forms/{slug}/access": {
    parameters: [slug],
    put: {
      summary: "Set or rotate the respondent access policy",
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: obj(
              {
                mode: { enum: ["public", "link", "password", "closed"] },
                password: str,
                rotate: { type: "boolean" },
              },
              ["mode"],
            ),
          },
        },
      },
      responses: {
        200: json(
          obj({ slug: str, mode: str, public_url: str, access_token: str }, [
            "slug",
            "mode",
            "public_url",
          ]),
        ),
        ...err("BadRequest"),
        ...owner,
      },
    },
  },
  "/api/forms/{slug}/public": {
    parameters: [slug],
    get: {
      ...pub,
      summary: "The public definition (no answer key)",
      responses: { 200: json({ type: "object" }), ...err("NotFound") },
    },
  },
  "/api/forms/{slug}/submit": {
    parameters: [slug, { name: "Idempotency-Key", in: "header", required: false, schema: str }],
    post: {
      ...pub,
      summary: "Submit a response (public, anti-bot token)",
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: obj(
              {
                fields: { type: "object" },
                hidden: { type: "object" },
                turnstile_token: str,
                access: str,
              },
              ["fields"],
            ),
          },
        },
      },
      responses: {
        201: json(
          obj(
            {
              response_id: str,
              submission_id: str,
              status: { const: "received" },
              score: obj({
                points: num,
                max_points: num,
                percent: num,
                passed: { type: ["boolean", "null"] },
              }),
            },
            ["response_id", "submission_id", "status"],
          ),
        ),
        ...err("BadRequest", "Forbidden", "NotFound", "TooLarge", "Captcha", "RateLimited"),
      },
    },
  },
  "/api/forms/{slug}/events": {
    parameters: [slug],
    post: {
      ...pub,
      summary: "Page beacon",
      requestBody: {
        required: true,
        content: { "application/json": { schema: obj({ type: { enum: ["view", "start"] } }) } },
      },
      responses: {
        204: { description: "Counted" },
        ...err("BadRequest", "NotFound", "RateLimited"),
      },
    },
  },
  "/api/forms/{slug}/uploads": {
    parameters: [slug],
    post: {
      ...pub,
      summary: "Upload a file for a file/image field",
      requestBody: {
        required: true,
        content: {
          "multipart/form-data": {
            schema: obj({
              field: str,
              file: { type: "string", contentMediaType: "application/octet-stream" },
            }),
          },
        },
      },
      responses: {
        201: json(obj({ url: str })),
        ...err("BadRequest", "NotFound", "TooLarge", "RateLimited"),
      },
    },
  },
  "/api/uploads/{key}": {
    get: {
      ...pub,
      summary: "An uploaded file",
      parameters: [{ name: "key", in: "path", required: true, schema: str }],
      responses: { 200: { description: "The file" }, ...err("NotFound") },
    },
  },
  "/api/challenge": {
    get: {
      ...pub,
      summary: "An ALTCHA proof-of-work challenge",
      responses: { 200: json({ type: "object" }), ...err("NotFound") },
    },
  },
  "/api/forms/{slug}/responses": {
    parameters: [slug],
    get: {
      summary: "Responses (variant A)",
      parameters: [q("page", int), q("limit", int), ...range],
      responses: {
        200: json(
          obj({ responses: { type: "array", items: record }, page: int, limit: int, total: int }),
        ),
        ...err("BadRequest"),
        ...owner,
      },
    },
  },
  "/api/forms/{slug}/submissions": {
    parameters: [slug],
    get: {
      summary: "Submissions (variant B)",
      parameters: [q("limit", int), q("offset", int), ...range],
      responses: {
        200: json(
          obj({
            submissions: { type: "array", items: record },
            limit: int,
            offset: int,
            total: int,
          }),
        ),
        ...err("BadRequest"),
        ...owner,
      },
    },
  },
  "/api/forms/{slug}/responses/{id}": {
    parameters: [slug, id],
    get: { summary: "One response", responses: { 200: json(record), ...owner } },
  },
  "/api/forms/{slug}/submissions/{id}": {
    parameters: [slug, id],
    get: { summary: "One submission", responses: { 200: json(record), ...owner } },
  },
  "/api/forms/{slug}/responses/export": {
    parameters: [slug],
    get: exportOp("Export responses (variant A)"),
  },
  "/api/forms/{slug}/submissions/export": {
    parameters: [slug],
    get: exportOp("Export submissions (variant B)"),
  },
  "/api/forms/{slug}/stats": {
    parameters: [slug],
    get: {
      summary: "Views, starts, responses, completion, 7-day sparkline and change",
      responses: {
        200: json(
          obj({
            views: int,
            starts: int,
            responses: int,
            submissions: int,
            completion_rate: num,
            sparkline_7d: { type: "array", items: obj({ date: str, count: int }) },
            change: obj({
              period: { const: "7d" },
              current: int,
              previous: int,
              delta: int,
              percent: { type: ["number", "null"] },
            }),
          }),
        ),
        ...owner,
      },
    },
  },
  "/api/forms/{slug}/report": {
    parameters: [slug],
    get: {
      summary: "A Markdown report",
      parameters: [q("period", { enum: ["7d", "30d", "90d", "all"] })],
      responses: {
        200: { description: "The report", content: { "text/markdown": { schema: str } } },
        ...err("BadRequest"),
        ...owner,
      },
    },
  },
  "/api/outbox": {
    get: {
      summary: "Emails due or sent for your forms, newest first",
      parameters: [q("limit", int), q("offset", int)],
      responses: {
        200: json(
          obj({
            emails: { type: "array", items: { type: "object" } },
            limit: int,
            offset: int,
            total: int,
          }),
        ),
        ...err("BadRequest"),
        ...owner,
      },
    },
  },
};

function exportOp(summary: string) {
  return {
    summary,
    parameters: [q("format", { enum: ["csv", "json", "markdown"] }), ...range],
    responses: {
      200: {
        description: "The export, streamed",
        headers: { "Content-Disposition": { schema: str } },
        content: {
          "text/csv": { schema: str },
          "application/json": { schema: { type: "array", items: record } },
          "text/markdown": { schema: str },
        },
      },
      ...err("BadRequest"),
      ...owner,
    },
  };
}

/** Other parts (insights, MCP) add their endpoints here at import time. */
export function addPaths(more: Record<string, Record<string, unknown>>): void {
  Object.assign(paths, more);
}

export const openApiHelpers = { json, obj, str, int, num, slug, q, err, owner, pub, range };
