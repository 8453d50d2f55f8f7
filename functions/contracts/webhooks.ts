// Webhooks (SPEC §11): a form's endpoints and their deliveries.
import { z } from "zod";
import { limit, offset } from "./common.ts";

const str = z.string();
export const events = z.array(z.enum(["response.created", "response.deleted"]));
const STATUSES = ["pending", "delivered", "failed"] as const;
export const status = z.enum(STATUSES);

export const webhookBody = z.looseObject({ url: str, events: events.optional() });
export const webhookList = z.object({
  webhooks: z.array(
    z.object({
      id: str,
      url: str.describe("A preset from the form file: slack:<VARIABLE> or sheet:<VARIABLE>"),
      events,
      created_at: str,
      source: z
        .enum(["api", "file"])
        .describe("file: kept in the form file, changed by deploying it"),
    }),
  ),
});
export const webhookCreated = z.object({ id: str, url: str, events, secret: str, created_at: str });
export const webhookTested = z.object({
  delivered: z.boolean(),
  status: z.int().nullable(),
  error: str.optional(),
});
export const deliveriesQuery = {
  limit: limit(100, 25),
  offset,
  // a status it does not know is 400 invalid_request (as before the contract)
  status: z
    .string()
    .refine((v) => (STATUSES as readonly string[]).includes(v), {
      message: "must be one of pending, delivered, failed",
      params: { code: "invalid_request" },
    })
    .meta({ enum: [...STATUSES] })
    .optional(),
};
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

/** What a receiver gets (functions/webhooks/payload.ts), signed as Standard Webhooks sign. */
const form = z.object({ form_id: str, slug: str, title: str });
const eventBody = z.object({
  type: z.enum(["response.created", "response.deleted", "webhook.test"]),
  timestamp: str.describe("When the event happened (the same on every retry)"),
  data: z.object({
    form,
    response: z
      .looseObject({ id: str })
      .optional()
      .describe(
        "response.created: id, submitted_at, payload (score, ending, variables, commit_sha); deleted: id",
      ),
    webhook: z.object({ id: str }).optional().describe("webhook.test: the webhook tested"),
  }),
});
const header = (name: string, description: string) => ({
  name,
  in: "header",
  required: true,
  schema: { type: "string" },
  description,
});
/** The document's `webhooks`: one POST per event, to the URL a webhook names (SPEC §11). */
export const webhookEvents = Object.fromEntries(
  eventBody.shape.type.options.map((event) => [
    event,
    {
      post: {
        operationId: `on${event.replace(/(^|\.)(\w)/g, (_, __, c: string) => c.toUpperCase())}`,
        summary: `The ${event} event, POSTed to your webhook's URL`,
        security: [],
        parameters: [
          header("webhook-id", "The delivery's id, the same on every retry: dedupe by it"),
          header("webhook-timestamp", "Unix seconds of this attempt"),
          header(
            "webhook-signature",
            "v1,base64(HMAC-SHA256 of '<webhook-id>.<webhook-timestamp>.<body>'), key: the secret after whsec_",
          ),
        ],
        requestBody: {
          required: true,
          content: { "application/json": { schema: z.toJSONSchema(eventBody, { io: "input" }) } },
        },
        responses: {
          200: { description: "Any 2xx: delivered" },
          400: { description: "Any other answer (or none in time): retried with backoff" },
        },
      },
    },
  ]),
);
