import { z } from "zod";
import { testWebhook } from "../../webhooks/service.ts";
import { slug } from "../args.ts";
import { defineTool, WRITE } from "../tool.ts";

export const testWebhookTool = defineTool({
  name: "test_webhook",
  title: "Send a test event",
  description:
    "Send a signed webhook.test event to one webhook now and answer what the receiver said: {delivered, status} (its HTTP status, error when it could not be reached). Not retried; logged in list_webhook_deliveries.",
  input: z.object({
    slug,
    webhook_id: z.string().describe("The webhook's id (a uuid, from add_webhook or list_webhooks)"),
  }),
  output: z.object({
    delivered: z.boolean(),
    status: z.number().nullable(),
    error: z.string().optional(),
  }),
  annotations: { ...WRITE, openWorldHint: true },
  run: (ctx, account, a) => testWebhook(ctx, account, a.slug, a.webhook_id),
});
