import { z } from "zod";
import { status } from "../../contracts/webhooks.ts";
import { listDeliveries } from "../../webhooks/service.ts";
import { slug, webhookId } from "../args.ts";
import { defineTool, READ } from "../tool.ts";

export const listWebhookDeliveriesTool = defineTool({
  name: "list_webhook_deliveries",
  title: "List webhook deliveries",
  description: "The last 25, newest first (total: all); last_status is the receiver's HTTP status.",
  input: z.object({
    slug,
    webhook_id: webhookId,
    status: status.optional(),
  }),
  output: z.object({
    deliveries: z.array(z.record(z.string(), z.unknown())),
    total: z.number(),
  }),
  grant: { rest: "GET /api/forms/:slug/webhooks/:id/deliveries" },
  annotations: READ,
  run: async (ctx, account, a) => {
    const { deliveries, total } = await listDeliveries(
      ctx,
      account,
      a.slug,
      a.webhook_id,
      25,
      0,
      a.status,
    );
    return { deliveries, total };
  },
});
