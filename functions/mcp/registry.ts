import type { AuditedOperation } from "../audit/actions.ts";
import { ROUTE_SCOPES } from "../route-scopes.ts";
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

/** Each tool's grant (tool.ts): its REST twin's scope and audit action, or its own. */
const grantOf = (t: ToolDef) => ("rest" in t.grant ? ROUTE_SCOPES[t.grant.rest] : t.grant);

/** The scope each tool needs (SPEC §23), checked by callTool (server.ts) before its arguments. */
export const TOOL_SCOPES: Record<string, Scope> = Object.fromEntries(
  TOOLS.map((t) => [t.name, grantOf(t).scope]),
);

/** What the audit log calls each tool's successful call (SPEC §26); the others are not recorded. */
export const TOOL_ACTIONS: Record<string, AuditedOperation> = Object.fromEntries(
  TOOLS.flatMap((t) => {
    const { audit } = grantOf(t);
    return audit ? [[t.name, audit]] : [];
  }),
);

export const SERVER_INFO = { name: "formdown", title: "Formdown", version: "0.1.0" };
export const DESCRIPTION =
  "Forms, surveys and quizzes as Markdown files in git: create and deploy forms, then read responses, stats, reports and exports.";

/** What a cold agent is told on connecting (initialize / server/discover). */
export const INSTRUCTIONS = `${DESCRIPTION} Respondents submit by POSTing {"fields": {...}} to a form's submit_url (plus turnstile_token when humanness is true); you try any form, live ones too, with try_form (a test response; test: false for a real one): never turn humanness off to submit. The complete form schema is the resource formdown://schema/form.`;
