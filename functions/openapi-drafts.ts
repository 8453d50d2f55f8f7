// Drafts and file moves (SPEC §16): publishing a draft, closing a removed file's form, moving a
// form to a new slug. Each operation names itself (operationId) and its 4xx answers.
import { err, json, obj, owner, slug, str } from "./openapi-schema.ts";

const moved = obj({ slug: str, renamed_from: str });

export const draftPaths: Record<string, Record<string, unknown>> = {
  "/api/forms/{slug}/publish": {
    parameters: [slug],
    post: {
      operationId: "publishForm",
      summary: "Make a draft live (its file is committed now); a live form is left as it is",
      responses: {
        200: json(
          obj(
            {
              slug: str,
              status: { enum: ["live", "closed"] },
              published: { type: "boolean" },
              public_url: str,
            },
            ["slug", "status", "published", "public_url"],
          ),
        ),
        ...owner,
      },
    },
  },
  "/api/forms/{slug}/preview/rotate": {
    parameters: [slug],
    post: {
      operationId: "rotatePreview",
      summary: "A new preview link for a draft; the old one stops working (a live form has none)",
      responses: {
        200: json(obj({ slug: str, preview_url: str })),
        ...err("Conflict"),
        ...owner,
      },
    },
  },
  "/api/forms/{slug}/close": {
    parameters: [slug],
    post: {
      operationId: "closeRemovedForm",
      summary:
        "Close a form whose file was removed (what `formdown deploy` does): responses kept, never a delete",
      responses: {
        200: json(obj({ result: { enum: ["closed"] }, slug: str, form_id: str, url: str })),
        ...owner,
      },
    },
  },
  "/api/forms/{slug}/rename": {
    parameters: [slug],
    post: {
      operationId: "renameForm",
      summary:
        "Move a form to a new slug: same id, responses and webhooks; the old public URL redirects (301)",
      requestBody: {
        required: true,
        content: { "application/json": { schema: obj({ slug: str }) } },
      },
      responses: { 200: json(moved), ...err("BadRequest", "Conflict"), ...owner },
    },
  },
  "/api/deploys": {
    post: {
      operationId: "reconcileDeploy",
      summary:
        "Reconcile the account's form files at a commit (what `formdown deploy` sends): added and changed files deployed, renamed ones moved (same id; old URL 301), removed ones closed; idempotent",
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: {
              type: "object",
              required: ["repository", "commit", "files"],
              properties: {
                repository: { type: "string", minLength: 1, maxLength: 500 },
                commit: { type: ["string", "null"], pattern: "^[0-9a-f]{7,64}$" },
                files: {
                  type: "array",
                  maxItems: 1000,
                  items: obj({ path: str, markdown: str }),
                },
                renames: { type: "array", maxItems: 1000, items: obj({ from: str, to: str }) },
                keep: { type: "array", maxItems: 1000, items: str },
                complete: { type: "boolean", default: true },
                dry_run: { type: "boolean", default: false },
                confirm: { type: "boolean", default: false },
              },
            },
          },
        },
      },
      responses: {
        200: json(obj({ repository: str, commit: str })),
        ...err("BadRequest"),
        ...owner,
      },
    },
  },
  "/api/deploys/head": {
    get: {
      operationId: "getDeployedCommit",
      summary: "The last commit reconciled from a repository into the caller's account",
      parameters: [
        {
          name: "repository",
          in: "query",
          required: true,
          schema: { type: "string", maxLength: 500 },
        },
      ],
      responses: {
        200: json(obj({ repository: str, commit: str })),
        ...err("BadRequest"),
        ...owner,
      },
    },
  },
};
