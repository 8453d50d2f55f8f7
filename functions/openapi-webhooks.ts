// The webhook endpoints (SPEC §11) and bulk deletion of responses (SPEC §12).
import { err, int, json, obj, owner, q, slug, str } from "./openapi-schema.ts";

const uuid = (name: string) => ({
  name,
  in: "path",
  required: true,
  schema: { type: "string" },
});
const events = {
  type: "array",
  items: { enum: ["response.created", "response.deleted"] },
};
const webhook = obj({ id: str, url: str, events, created_at: str });
const nullable = (type: string) => ({ type: [type, "null"] });
const delivery = obj({
  id: str,
  event: { enum: ["response.created", "response.deleted", "webhook.test"] },
  response_id: nullable("string"),
  status: { enum: ["pending", "delivered", "failed"] },
  attempts: int,
  last_status: nullable("integer"),
  last_error: nullable("string"),
  next_attempt_at: str,
  created_at: str,
});
export const webhookPaths: Record<string, Record<string, unknown>> = {
  "/api/forms/{slug}/webhooks": {
    parameters: [slug],
    get: {
      summary: "The form's webhooks (without secrets)",
      responses: { 200: json(obj({ webhooks: { type: "array", items: webhook } })), ...owner },
    },
    post: {
      summary: "Add a webhook; the signing secret is shown only in this answer",
      requestBody: {
        required: true,
        content: { "application/json": { schema: obj({ url: str, events }, ["url"]) } },
      },
      responses: {
        201: json(obj({ id: str, url: str, events, secret: str, created_at: str })),
        ...err("BadRequest", "Conflict"),
        ...owner,
      },
    },
  },
  "/api/forms/{slug}/webhooks/{id}": {
    parameters: [slug, uuid("id")],
    delete: {
      summary: "Delete a webhook and its deliveries",
      responses: { 204: { description: "Deleted" }, ...owner },
    },
  },
  "/api/forms/{slug}/webhooks/{id}/test": {
    parameters: [slug, uuid("id")],
    post: {
      summary: "Send a webhook.test event now; answers the receiver's HTTP status",
      responses: {
        200: json(
          obj({ delivered: { type: "boolean" }, status: nullable("integer"), error: str }, [
            "delivered",
            "status",
          ]),
        ),
        ...owner,
      },
    },
  },
  "/api/forms/{slug}/webhooks/{id}/deliveries": {
    parameters: [slug, uuid("id")],
    get: {
      summary: "The webhook's deliveries, newest first",
      parameters: [
        q("limit", int),
        q("offset", int),
        q("status", { enum: ["pending", "delivered", "failed"] }),
      ],
      responses: {
        200: json(
          obj({
            deliveries: { type: "array", items: delivery },
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
  "/api/forms/{slug}/webhooks/{id}/deliveries/{delivery_id}/retry": {
    parameters: [slug, uuid("id"), uuid("delivery_id")],
    post: {
      summary: "Queue a delivery again, at once",
      responses: { 202: json(obj({ id: str, status: { const: "pending" } })), ...owner },
    },
  },
};
