// The endpoints of the REST API, described by hand where zod has no schema of its own.

import { createBody, created, deployBody, deployed, translations } from "./openapi-bodies.ts";
import { err, id, int, json, obj, owner, parser, pub, q, slug, str } from "./openapi-schema.ts";
import { changeParameters, changeResponses } from "./openapi-versions.ts";

const stats = obj({ views: int, responses: int, submissions: int });
const summary = obj({
  slug: str,
  title: str,
  type: str,
  status: { enum: ["live", "closed", "draft"] },
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
    preview_url: { type: "string", description: "A draft's unguessable preview page (SPEC §16)" },
    version: { ...int, description: "The live version (SPEC §16)" },
    lang: { ...str, description: "The language config is in (a form with languages, SPEC §20)" },
    languages: { type: "array", items: str, description: "The form's languages, its own first" },
    choices: {
      type: "object",
      description: "Field id → {option as in the form → its label in lang}",
    },
    created_at: str,
    updated_at: str,
    config: { type: "object" },
    stats,
  },
};
// what a key may do (SPEC §23); a key without `forms` may touch every form
const scopes = {
  type: "array",
  items: { type: "string", enum: ["read", "write", "admin"] },
  minItems: 1,
};
const forms = { type: ["array", "null"], items: str, minItems: 1, maxItems: 100 };

export const record = {
  type: "object",
  required: ["id", "submitted_at", "payload"],
  properties: {
    id: str,
    submitted_at: str,
    version: { ...int, description: "The form version it was answered against" },
    lang: { ...str, description: "The language the respondent read (SPEC §20)" },
    payload: { type: "object" },
    score: {},
    test: { const: true },
  },
};
export const range = [q("since"), q("until")];
export const paths: Record<string, Record<string, unknown>> = {
  "/api/health": {
    get: {
      ...pub,
      summary: "Liveness, and whether the database answers",
      description:
        "With `detail=1` (`formdown doctor`): `overdue` counts emails and webhook deliveries due for over 5 minutes (no sender running), `warnings` names settings that would put localhost in links.",
      parameters: [q("detail", { enum: ["1"] })],
      responses: {
        200: json(
          obj(
            {
              ok: { type: "boolean" },
              database: { enum: ["up"] },
              overdue: obj({ emails: int, deliveries: int }),
              warnings: { type: "array", items: str },
            },
            ["ok", "database"],
          ),
        ),
        503: json(
          obj({ ok: { type: "boolean" }, database: { enum: ["down"] }, error: str, code: str }),
          "The database cannot be reached (Retry-After says when to look again)",
        ),
        ...parser(),
      },
    },
  },
  "/api/openapi.json": {
    get: {
      ...pub,
      summary: "This document",
      responses: { 200: json({ type: "object" }), ...parser() },
    },
  },
  "/api/form.schema.json": {
    get: {
      ...pub,
      summary:
        "The complete form definition as JSON Schema 2020-12 (also MCP resource formdown://schema/form)",
      responses: {
        200: json({ type: "object", description: "A JSON Schema document" }),
        ...parser(),
      },
    },
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
        200: json(
          obj({
            keys: { type: "array", items: { type: "object", properties: { scopes, forms } } },
          }),
        ),
        ...owner,
      },
    },
    post: {
      summary: "Create another API key (`scopes`: read, write or admin; `forms`: only these)",
      requestBody: {
        content: {
          "application/json": {
            schema: { type: "object", properties: { name: str, scopes, forms } },
          },
        },
      },
      responses: {
        201: json(
          obj({ id: str, api_key: str, prefix: str, name: {}, scopes, forms, created_at: str }),
        ),
        ...err("BadRequest", "Unauthorized", "Forbidden", "Conflict", "RateLimited"),
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
      requestBody: createBody,
      responses: {
        201: json(created),
        ...err("BadRequest", "Unauthorized", "Forbidden", "Conflict", "TooLarge", "RateLimited"),
      },
    },
  },
  "/api/forms/{slug}": {
    parameters: [slug],
    get: {
      summary: "A form's definition and stats (`?lang=`: in one of its languages, SPEC §20)",
      parameters: [
        q("lang", { ...str, description: "One of the form's languages (default: its own)" }),
      ],
      responses: { 200: json(detail), ...err("BadRequest"), ...owner },
    },
    patch: {
      summary: "Change part of a form (`?dry_run=true`: the plan only)",
      parameters: changeParameters,
      requestBody: {
        required: true,
        content: {
          "application/json": { schema: { type: "object", properties: { translations } } },
        },
      },
      responses: {
        200: json({ anyOf: [detail, { $ref: "#/components/schemas/Plan" }] }),
        ...err("BadRequest"),
        ...owner,
        409: changeResponses[409],
      },
    },
    put: {
      summary: "Create or update a form in place (deploy; `?dry_run=true`: the plan only)",
      parameters: changeParameters,
      requestBody: deployBody,
      responses: {
        200: json({ anyOf: [deployed, { $ref: "#/components/schemas/Plan" }] }),
        201: json(deployed),
        ...err("BadRequest"),
        ...owner,
        409: changeResponses[409],
      },
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
};
