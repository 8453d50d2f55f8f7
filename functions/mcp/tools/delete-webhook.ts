import { z } from "zod";
import { deleteWebhook } from "../../webhooks/service.ts";
import { defineTool } from "../tool.ts";

export const deleteWebhookTool = defineTool({
  name: "delete_webhook",
  title: "Delete a webhook",
  description:
    "Stop pushing a form's responses to one endpoint: deletes the webhook and its delivery log; deliveries not yet sent are dropped. Get the id from list_webhooks.",
  input: z.object({
    slug: z.string().min(1).describe("The form's slug"),
    webhook_id: z.string().describe("The webhook's id (a uuid, from list_webhooks)"),
  }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  run: async (ctx, account, a) => {
    await deleteWebhook(ctx, account, a.slug, a.webhook_id);
    return { deleted: true, webhook_id: a.webhook_id };
  },
});
