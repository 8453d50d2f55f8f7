import { z } from "zod";
import { testWebhook } from "../../webhooks/service.ts";
import { slug, webhookId } from "../args.ts";
import { defineTool, WRITE } from "../tool.ts";

export const testWebhookTool = defineTool({
  name: "test_webhook",
  title: "Send a test event",
  description: "A signed webhook.test now (not retried): the HTTP status, null if unreachable.",
  input: z.object({
    slug,
    webhook_id: webhookId,
  }),
  output: z.object({
    delivered: z.boolean(),
    status: z.number().nullable(),
    error: z.string().optional(),
  }),
  grant: { rest: "POST /api/forms/:slug/webhooks/:id/test" },
  annotations: { ...WRITE, openWorldHint: true },
  run: (ctx, account, a) => testWebhook(ctx, account, a.slug, a.webhook_id),
});
