import { z } from "zod";
import { listWebhooks } from "../../webhooks/service.ts";
import { defineTool, READ } from "../tool.ts";

export const listWebhooksTool = defineTool({
  name: "list_webhooks",
  title: "List webhooks",
  description:
    "The webhooks of a form: {webhooks: [{id, url, events, created_at}]}. Secrets are never listed (they are shown once, by add_webhook); to replace a lost secret, delete the webhook and add it again.",
  input: z.object({ slug: z.string().min(1).describe("The form's slug") }),
  annotations: READ,
  run: (ctx, account, a) => listWebhooks(ctx, account, a.slug),
});
