import { z } from "zod";
import { deleteWebhook } from "../../webhooks/service.ts";
import { slug, webhookId } from "../args.ts";
import { DELETE, defineTool } from "../tool.ts";

export const deleteWebhookTool = defineTool({
  name: "delete_webhook",
  title: "Delete a webhook",
  description: "Stop one (id from list_webhooks); its unsent deliveries are dropped.",
  input: z.object({
    slug,
    webhook_id: webhookId,
  }),
  output: z.object({ deleted: z.boolean() }),
  grant: { rest: "DELETE /api/forms/:slug/webhooks/:id" },
  annotations: DELETE,
  run: async (ctx, account, a) => {
    await deleteWebhook(ctx, account, a.slug, a.webhook_id);
    return { deleted: true, webhook_id: a.webhook_id };
  },
});
