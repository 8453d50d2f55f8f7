import { z } from "zod";
import type { ToolDef } from "./tool.ts";
import { addWebhookTool } from "./tools/add-webhook.ts";
import { deleteFormTool } from "./tools/delete-form.ts";
import { deleteResponseTool } from "./tools/delete-response.ts";
import { deleteWebhookTool } from "./tools/delete-webhook.ts";
import * as forms from "./tools/forms.ts";
import { listWebhooksTool } from "./tools/list-webhooks.ts";
import * as responses from "./tools/responses.ts";

/** Every MCP tool, in the order tools/list shows them; discovery documents read this too. */
export const TOOLS: ToolDef[] = [
  forms.createFormTool,
  forms.updateFormTool,
  forms.updateAccessTool,
  forms.addFieldTool,
  forms.deployFormTool,
  forms.getFormTool,
  forms.listFormsTool,
  responses.listResponsesTool,
  responses.getResponseTool,
  responses.getStatsTool,
  responses.getReportTool,
  responses.exportResponsesTool,
  responses.getResponsesTool,
  forms.validateFormTool,
  addWebhookTool,
  listWebhooksTool,
  deleteWebhookTool,
  deleteResponseTool,
  deleteFormTool,
];

/** The tool's input as JSON Schema (2020-12, input view: defaults optional). */
export function inputJsonSchema(tool: ToolDef): Record<string, unknown> {
  const schema = z.toJSONSchema(tool.input, { io: "input", unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  delete schema.$schema;
  return schema;
}

export const SERVER_INFO = { name: "formdown", title: "Formdown", version: "0.1.0" };
export const DESCRIPTION =
  "Forms, surveys and quizzes as Markdown files in git: create and deploy forms, then read responses, stats, reports and exports.";
