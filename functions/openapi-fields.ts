// One field at a time (SPEC §18): change, remove or move a single field of a form.
import { changeParameters, changeResponses } from "./openapi-versions.ts";

type Schema = Record<string, unknown>;
const str = { type: "string" };
const path = (name: string, description: string) => ({
  name,
  in: "path",
  required: true,
  schema: str,
  description,
});
const err = (...names: string[]) =>
  Object.fromEntries(
    names.map((name) => [
      { BadRequest: 400, Unauthorized: 401, Forbidden: 403, NotFound: 404 }[name]!,
      { $ref: `#/components/responses/${name}` },
    ]),
  );
const body = (schema: Schema, description: string) => ({
  required: true,
  description,
  content: { "application/json": { schema } },
});

/** What each answers: short, never the whole definition. */
const fieldChange = {
  type: "object",
  required: ["slug", "version", "field", "plan"],
  properties: {
    slug: str,
    version: {
      type: "integer",
      description: "The form's version after the change (dry run: the live one)",
    },
    field: { type: "object", description: "The field as changed (as removed)" },
    plan: { $ref: "#/components/schemas/Plan" },
  },
};

const responses = {
  200: {
    description: "The field and the plan (with `?dry_run=true`, nothing changed)",
    content: { "application/json": { schema: fieldChange } },
  },
  ...err("BadRequest", "Unauthorized", "Forbidden"),
  404: {
    description: "`not_found`: no such form, or no such field (the message names the closest id)",
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
  },
  409: changeResponses[409],
};

const params = [path("slug", "The form's slug"), path("id", "The field's id"), ...changeParameters];

export const fieldPaths = {
  "/api/forms/{slug}/fields/{id}": {
    patch: {
      operationId: "updateField",
      summary: "Change one field's keys; only its lines of the form file change",
      description:
        'The body holds the keys to change (`null` removes a key), e.g. `{"label": "New"}`. A new `id` keeps the field\'s answers: the old id goes into `formerly`.',
      parameters: params,
      requestBody: body({ type: "object" }, "The field's keys to change"),
      responses,
    },
    delete: {
      operationId: "removeField",
      summary: "Remove one field; its answers stay stored and are exported as retired",
      description:
        "A field that has answers is refused with 409 `plan_needs_confirmation` until `?confirm=true`.",
      parameters: params,
      responses,
    },
  },
  "/api/forms/{slug}/fields/{id}/move": {
    post: {
      operationId: "moveField",
      summary: "Put one field before or after another; only the order changes",
      parameters: params,
      requestBody: body(
        {
          type: "object",
          properties: {
            before: { type: "string", description: "The id of the field it goes before" },
            after: { type: "string", description: "The id of the field it goes after" },
          },
        },
        "Exactly one of `before` and `after`",
      ),
      responses,
    },
  },
};
