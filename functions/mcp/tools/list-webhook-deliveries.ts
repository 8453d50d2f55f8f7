import { z } from "zod";
import { listDeliveries } from "../../webhooks/service.ts";
import { slug } from "../args.ts";
import { defineTool, READ } from "../tool.ts";

const STATUSES = ["pending", "delivered", "failed"] as const;

export const listWebhookDeliveriesTool = defineTool({
  name: "list_webhook_deliveries",
  title: "List webhook deliveries",
  description:
    "A webhook's deliveries, newest first: event, response_id, status (pending, delivered, failed), attempts, last_status (the receiver's HTTP status), last_error, next_attempt_at; total counts them all.",
  input: z.object({
    slug,
    webhook_id: z.string().describe("The webhook's id (a uuid, from list_webhooks)"),
    status: z.enum(STATUSES).optional().describe("Only deliveries in this state"),
    limit: z.number().int().min(1).max(100).default(25).describe("At most this many (max 100)"),
  }),
  output: z.object({
    deliveries: z.array(z.looseObject({ id: z.string(), event: z.string(), status: z.string() })),
    total: z.number(),
  }),
  annotations: READ,
  run: async (ctx, account, a) => {
    const { deliveries, total } = await listDeliveries(
      ctx,
      account,
      a.slug,
      a.webhook_id,
      a.limit,
      0,
      a.status,
    );
    return { deliveries, total };
  },
});
