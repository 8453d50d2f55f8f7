// Every operation's operationId (what generated clients name their methods), in one table.
// An operation the table does not name yet still gets a stable one from its method and path.

const IDS: Record<string, string> = {
  "GET /api/health": "getHealth",
  "GET /api/openapi.json": "getOpenApiDocument",
  "GET /api/form.schema.json": "getFormJsonSchema",
  "POST /api/accounts": "createAccount",
  "GET /api/keys": "listKeys",
  "POST /api/keys": "createKey",
  "DELETE /api/keys/{id}": "revokeKey",
  "GET /api/forms": "listForms",
  "POST /api/forms": "createForm",
  "GET /api/forms/{slug}": "getForm",
  "PATCH /api/forms/{slug}": "updateForm",
  "PUT /api/forms/{slug}": "deployForm",
  "DELETE /api/forms/{slug}": "deleteForm",
  "PUT /api/forms/{slug}/access": "updateFormAccess",
  "GET /api/forms/{slug}/responses": "listResponses",
  "DELETE /api/forms/{slug}/responses": "deleteResponses",
  "GET /api/forms/{slug}/submissions": "listSubmissions",
  "DELETE /api/forms/{slug}/submissions": "deleteSubmissions",
  "GET /api/forms/{slug}/responses/{id}": "getResponse",
  "DELETE /api/forms/{slug}/responses/{id}": "deleteResponse",
  "GET /api/forms/{slug}/submissions/{id}": "getSubmission",
  "DELETE /api/forms/{slug}/submissions/{id}": "deleteSubmission",
  "GET /api/forms/{slug}/public": "getPublicForm",
  "GET /api/preview/{token}": "getPreviewVersion",
  "POST /api/forms/{slug}/submit": "submitResponse",
  "POST /api/forms/{slug}/events": "recordPageEvent",
  "POST /api/forms/{slug}/uploads": "uploadFile",
  "GET /api/uploads/{key}": "getUpload",
  "GET /api/challenge": "getChallenge",
  "GET /api/forms/{slug}/responses/export": "exportResponses",
  "GET /api/forms/{slug}/submissions/export": "exportSubmissions",
  "GET /api/forms/{slug}/stats": "getFormStats",
  "GET /api/forms/{slug}/report": "getResponseReport",
  "GET /view/responses/{id}": "viewResponse",
  "GET /view/forms/{form_id}/report": "viewReport",
  "GET /api/outbox": "listOutbox",
  "GET /api/forms/{slug}/webhooks": "listWebhooks",
  "POST /api/forms/{slug}/webhooks": "createWebhook",
  "DELETE /api/forms/{slug}/webhooks/{id}": "deleteWebhook",
  "POST /api/forms/{slug}/webhooks/{id}/test": "testWebhook",
  "GET /api/forms/{slug}/webhooks/{id}/deliveries": "listWebhookDeliveries",
  "POST /api/forms/{slug}/webhooks/{id}/deliveries/{delivery_id}/retry": "retryWebhookDelivery",
};

const words = (s: string) => s.split(/[^A-Za-z0-9]+/).filter(Boolean);
const title = (w: string) => w[0]!.toUpperCase() + w.slice(1);

/** `POST /api/forms/{slug}/fields` → "postFormsBySlugFields" when the table has no name for it. */
export function operationId(method: string, path: string): string {
  const named = IDS[`${method.toUpperCase()} ${path}`];
  if (named) return named;
  const parts = path
    .split("/")
    .filter((p) => p && p !== "api")
    .flatMap((p) => (p.startsWith("{") ? ["By", ...words(p).map(title)] : words(p).map(title)));
  return method.toLowerCase() + parts.join("");
}
