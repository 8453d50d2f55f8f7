import { z } from "zod";
import { createWebhook } from "../../webhooks/service.ts";
import { defineTool, WRITE } from "../tool.ts";

export const addWebhookTool = defineTool({
  name: "add_webhook",
  title: "Add a webhook",
  description:
    "Push a form's responses to an HTTPS endpoint (Slack, Zapier, n8n, a CRM…): every new response is POSTed as a signed JSON event (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature), retried for over a day until the receiver answers 2xx. Returns {id, url, events, secret, created_at}; the secret (whsec_…) verifies signatures and is shown only now, so hand it to the user. At most 10 per form; in production, private and loopback addresses are refused.",
  input: z.object({
    slug: z.string().min(1).describe("The form's slug"),
    url: z.string().min(1).describe("The receiver's http or https URL"),
    events: z
      .array(z.enum(["response.created", "response.deleted"]))
      .min(1)
      .optional()
      .describe("Which events to send (default both: response.created and response.deleted)"),
  }),
  annotations: { ...WRITE, openWorldHint: true },
  run: (ctx, account, a) =>
    createWebhook(ctx, account, a.slug, { url: a.url, ...(a.events ? { events: a.events } : {}) }),
});
