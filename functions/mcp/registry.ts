import type { Scope } from "../scopes.ts";
import type { ToolDef } from "./tool.ts";
import { addFieldTool } from "./tools/add-field.ts";
import { addWebhookTool } from "./tools/add-webhook.ts";
import { createFormTool } from "./tools/create-form.ts";
import { createInvitesTool } from "./tools/create-invites.ts";
import { deleteFormTool } from "./tools/delete-form.ts";
import { deleteResponseTool } from "./tools/delete-response.ts";
import { deleteResponsesTool } from "./tools/delete-responses.ts";
import { deleteWebhookTool } from "./tools/delete-webhook.ts";
import { deployFormTool } from "./tools/deploy-form.ts";
import { exportResponsesTool } from "./tools/export-responses.ts";
import { getFormTool } from "./tools/get-form.ts";
import { getFormFileTool } from "./tools/get-form-file.ts";
import { getStatsTool } from "./tools/get-form-stats.ts";
import { getResponseTool } from "./tools/get-response.ts";
import { getReportTool } from "./tools/get-response-report.ts";
import { getResponsesTool } from "./tools/get-responses.ts";
import { listAuditTool } from "./tools/list-audit.ts";
import { listFormsTool } from "./tools/list-forms.ts";
import { listInvitesTool } from "./tools/list-invites.ts";
import { listResponsesTool } from "./tools/list-responses.ts";
import { listWebhookDeliveriesTool } from "./tools/list-webhook-deliveries.ts";
import { listWebhooksTool } from "./tools/list-webhooks.ts";
import { moveFieldTool } from "./tools/move-field.ts";
import { publishFormTool } from "./tools/publish-form.ts";
import { removeFieldTool } from "./tools/remove-field.ts";
import { revokeInviteTool } from "./tools/revoke-invite.ts";
import { testFormTool } from "./tools/test-form.ts";
import { testWebhookTool } from "./tools/test-webhook.ts";
import { tryFormTool } from "./tools/try-form.ts";
import { updateFieldTool } from "./tools/update-field.ts";
import { updateFormTool } from "./tools/update-form.ts";
import { updateAccessTool } from "./tools/update-form-access.ts";
import { validateFormTool } from "./tools/validate-form.ts";
import { whoamiTool } from "./tools/whoami.ts";

/** Every MCP tool, in the order tools/list shows them; discovery documents read this too. */
export const TOOLS: ToolDef[] = [
  createFormTool,
  publishFormTool,
  updateFormTool,
  updateAccessTool,
  addFieldTool,
  updateFieldTool,
  removeFieldTool,
  moveFieldTool,
  deployFormTool,
  getFormTool,
  listFormsTool,
  listResponsesTool,
  getResponseTool,
  getStatsTool,
  getReportTool,
  exportResponsesTool,
  getResponsesTool,
  validateFormTool,
  testFormTool,
  whoamiTool,
  getFormFileTool,
  addWebhookTool,
  listWebhooksTool,
  deleteWebhookTool,
  testWebhookTool,
  listWebhookDeliveriesTool,
  deleteResponseTool,
  deleteResponsesTool,
  deleteFormTool,
  tryFormTool,
  createInvitesTool,
  listInvitesTool,
  revokeInviteTool,
  listAuditTool,
];

/**
 * The scope each tool needs (SPEC §23), checked by callTool (server.ts) before its arguments: a
 * tool missing here needs `admin`, and test/security/key-scopes.test.ts fails on it.
 */
export const TOOL_SCOPES: Record<string, Scope> = {
  create_form: "write",
  publish_form: "write",
  update_form: "write",
  update_form_access: "write",
  add_field: "write",
  update_field: "write",
  remove_field: "write",
  move_field: "write",
  deploy_form: "write",
  get_form: "read",
  list_forms: "read",
  list_responses: "read",
  get_response: "read",
  get_form_stats: "read",
  get_response_report: "read",
  export_responses: "read",
  get_responses: "read",
  validate_form: "read",
  test_form: "read",
  whoami: "read",
  get_form_file: "read",
  add_webhook: "admin",
  list_webhooks: "admin",
  delete_webhook: "admin",
  test_webhook: "admin",
  list_webhook_deliveries: "admin",
  delete_response: "admin",
  delete_responses: "admin",
  delete_form: "admin",
  // its submits store test answers
  try_form: "write",
  // personal links (SPEC §25), as REST's /invites routes
  create_invites: "write",
  list_invites: "read",
  revoke_invite: "write",
  // as GET /api/audit (SPEC §26)
  list_audit: "admin",
};

export const SERVER_INFO = { name: "formdown", title: "Formdown", version: "0.1.0" };
export const DESCRIPTION =
  "Forms, surveys and quizzes as Markdown files in git: create and deploy forms, then read responses, stats, reports and exports.";

/** What a cold agent is told on connecting (initialize / server/discover). */
export const INSTRUCTIONS = `${DESCRIPTION} Respondents submit by POSTing {"fields": {...}} to a form's submit_url (plus turnstile_token when humanness is true); you try any form, live ones too, with try_form (a test response; test: false for a real one): never turn humanness off to submit. The complete form schema is the resource formdown://schema/form.`;
