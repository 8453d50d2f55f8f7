// Webhooks (SPEC §11): a form's endpoints and their deliveries.
import { z } from "zod";
import { limit, offset } from "./common.ts";

const str = z.string();
const events = z.array(z.enum(["response.created", "response.deleted"]));
const status = z.enum(["pending", "delivered", "failed"], {
  error: "must be one of pending, delivered, failed",
});

export const webhookBody = z.looseObject({ url: str, events: events.optional() });
export const webhookList = z.object({
  webhooks: z.array(z.object({ id: str, url: str, events, created_at: str })),
});
export const webhookCreated = z.object({ id: str, url: str, events, secret: str, created_at: str });
export const webhookTested = z.object({
  delivered: z.boolean(),
  status: z.int().nullable(),
  error: str.optional(),
});
export const deliveriesQuery = { limit: limit(100, 25), offset, status: status.optional() };
export const deliveries = z.object({
  deliveries: z.array(
    z.object({
      id: str,
      event: z.enum(["response.created", "response.deleted", "webhook.test"]),
      response_id: str.nullable(),
      status,
      attempts: z.int(),
      last_status: z.int().nullable(),
      last_error: str.nullable(),
      next_attempt_at: str,
      created_at: str,
    }),
  ),
  limit: z.int(),
  offset: z.int(),
  total: z.int(),
});
export const retried = z.object({ id: str, status: z.literal("pending") });
