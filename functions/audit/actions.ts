/**
 * What the audit log calls each operation it records (SPEC §26): every read of responses and every
 * change, by REST operation (method and route pattern, as route-scopes.ts names them) and by MCP
 * tool. An operation not named here is not recorded; test/backend/audit.test.ts fails on a
 * changing route or tool left out. `form: "answer"` takes the form from the answer's `slug` (a
 * form made by the call names it nowhere else).
 */
export interface AuditedOperation {
  action: string;
  form?: "answer";
}

const read = (action: string): AuditedOperation => ({ action });

export const ROUTE_ACTIONS: Record<string, AuditedOperation> = {
  "GET /api/forms/:slug/responses": read("responses.list"),
  "GET /api/forms/:slug/submissions": read("responses.list"),
  "GET /api/forms/:slug/responses/:id{[0-9a-fA-F-]{36}}": read("responses.read"),
  "GET /api/forms/:slug/submissions/:id{[0-9a-fA-F-]{36}}": read("responses.read"),
  "GET /api/forms/:slug/responses/export": read("responses.export"),
  "GET /api/forms/:slug/submissions/export": read("responses.export"),
  "GET /api/forms/:slug/report": read("responses.report"),
  "GET /api/forms/:slug/stats": read("responses.stats"),
  // the emails due or sent hold the answers they carry (owners' notifications, respondents' copies)
  "GET /api/outbox": read("responses.outbox"),

  "POST /api/forms": { action: "form.create", form: "answer" },
  "PUT /api/forms/:slug": { action: "form.replace", form: "answer" },
  "PATCH /api/forms/:slug": { action: "form.update" },
  "DELETE /api/forms/:slug": { action: "form.delete" },
  "POST /api/forms/:slug/publish": { action: "form.publish" },
  "POST /api/forms/:slug/close": { action: "form.close" },
  "POST /api/forms/:slug/rename": { action: "form.rename" },
  "POST /api/forms/:slug/preview/rotate": { action: "form.preview_rotate" },
  "PUT /api/forms/:slug/access": { action: "form.access" },
  "POST /api/deploys": { action: "forms.deploy" },
  "POST /api/forms/:slug/invites": { action: "invites.create" },
  "GET /api/forms/:slug/invites": read("invites.list"),
  "DELETE /api/forms/:slug/invites/:token": { action: "invites.revoke" },
  "POST /api/outbox/test": { action: "mail.test" },
  "PATCH /api/forms/:slug/fields/:id": { action: "field.update" },
  "DELETE /api/forms/:slug/fields/:id": { action: "field.remove" },
  "POST /api/forms/:slug/fields/:id/move": { action: "field.move" },

  "DELETE /api/forms/:slug/responses/:id": { action: "responses.erase" },
  "DELETE /api/forms/:slug/submissions/:id": { action: "responses.erase" },
  "DELETE /api/forms/:slug/responses": { action: "responses.erase" },
  "DELETE /api/forms/:slug/submissions": { action: "responses.erase" },

  "POST /api/keys": { action: "key.create" },
  "DELETE /api/keys/:id": { action: "key.revoke" },
  "POST /api/members": { action: "member.add" },
  "DELETE /api/members/:id": { action: "member.remove" },

  "POST /api/forms/:slug/webhooks": { action: "webhook.add" },
  "DELETE /api/forms/:slug/webhooks/:id": { action: "webhook.delete" },
  "POST /api/forms/:slug/webhooks/:id/test": { action: "webhook.test" },
  "POST /api/forms/:slug/webhooks/:id/deliveries/:delivery_id/retry": { action: "webhook.retry" },
};

export const TOOL_ACTIONS: Record<string, AuditedOperation> = {
  list_responses: read("responses.list"),
  get_responses: read("responses.list"),
  get_response: read("responses.read"),
  export_responses: read("responses.export"),
  get_response_report: read("responses.report"),
  get_form_stats: read("responses.stats"),

  create_form: { action: "form.create", form: "answer" },
  publish_form: { action: "form.publish" },
  update_form: { action: "form.update" },
  update_form_access: { action: "form.access" },
  deploy_form: { action: "forms.deploy", form: "answer" },
  delete_form: { action: "form.delete" },
  add_field: { action: "field.add" },
  update_field: { action: "field.update" },
  remove_field: { action: "field.remove" },
  move_field: { action: "field.move" },
  try_form: { action: "form.try" },
  add_webhook: { action: "webhook.add" },
  delete_webhook: { action: "webhook.delete" },
  test_webhook: { action: "webhook.test" },
  delete_response: { action: "responses.erase" },
  delete_responses: { action: "responses.erase" },
  create_invites: { action: "invites.create" },
  list_invites: read("invites.list"),
  revoke_invite: { action: "invites.revoke" },
};

/** The pages of `/results` (functions/results/routes.ts) that read responses or change a form. */
export const RESULTS_ACTIONS: Record<string, AuditedOperation> = {
  "GET /results/forms/:slug/responses": read("responses.list"),
  "GET /results/forms/:slug/responses/:id": read("responses.read"),
  "GET /results/forms/:slug/export": read("responses.export"),
  "GET /results/forms/:slug/report": read("responses.report"),
  "POST /results/forms/:slug/close": { action: "form.access" },
};
