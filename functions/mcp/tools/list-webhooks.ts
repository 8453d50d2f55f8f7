import { z } from "zod";
import { listWebhooks } from "../../webhooks/service.ts";
import { slug } from "../args.ts";
import { defineTool, READ } from "../tool.ts";

export const listWebhooksTool = defineTool({
  name: "list_webhooks",
  title: "List webhooks",
  description: "A form's webhooks, never their secrets.",
  input: z.object({ slug }),
  output: z.object({
    webhooks: z.array(
      z.looseObject({ id: z.string(), url: z.string(), events: z.array(z.string()) }),
    ),
  }),
  grant: { rest: "GET /api/forms/:slug/webhooks" },
  annotations: READ,
  run: (ctx, account, a) => listWebhooks(ctx, account, a.slug),
});
