import { z } from "zod";
import { createWebhook } from "../../webhooks/service.ts";
import { slug } from "../args.ts";
import { defineTool, WRITE } from "../tool.ts";

export const addWebhookTool = defineTool({
  name: "add_webhook",
  title: "Add a webhook",
  description:
    "POST each new (and deleted) response to a URL as a signed JSON event (Standard Webhooks), retried for over a day. The whsec_ secret is shown only in this answer. Max 10 per form.",
  input: z.object({
    slug,
    url: z.string().min(1).describe("The receiver's http or https URL"),
    events: z
      .array(z.enum(["response.created", "response.deleted"]))
      .min(1)
      .optional()
      .describe("Which events to send (default both: response.created and response.deleted)"),
  }),
  output: z.object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    secret: z.string(),
    created_at: z.string(),
  }),
  annotations: { ...WRITE, openWorldHint: true },
  run: (ctx, account, a) =>
    createWebhook(ctx, account, a.slug, { url: a.url, ...(a.events ? { events: a.events } : {}) }),
});
