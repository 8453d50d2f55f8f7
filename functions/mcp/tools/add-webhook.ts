import { z } from "zod";
import { events } from "../../contracts/webhooks.ts";
import { SIGNING_RECIPE } from "../../webhooks/recipe.ts";
import { createWebhook } from "../../webhooks/service.ts";
import { slug } from "../args.ts";
import { defineTool, WRITE } from "../tool.ts";

export const addWebhookTool = defineTool({
  name: "add_webhook",
  title: "Add a webhook",
  description:
    "Signed POSTs (Standard Webhooks, HMAC-SHA256) of each new and deleted response, retried a day. Answers its whsec_ secret once, and how to verify. Max 10 per form.",
  input: z.object({
    slug,
    url: z.string().min(1).describe("http(s) receiver"),
    events: events.min(1).optional().describe("Default: both"),
  }),
  output: z.object({
    id: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    secret: z.string(),
    created_at: z.string(),
    signing: z.record(z.string(), z.unknown()),
  }),
  grant: { rest: "POST /api/forms/:slug/webhooks" },
  annotations: { ...WRITE, openWorldHint: true },
  run: async (ctx, account, a) => ({
    ...(await createWebhook(ctx, account, a.slug, {
      url: a.url,
      ...(a.events ? { events: a.events } : {}),
    })),
    signing: SIGNING_RECIPE,
  }),
});
