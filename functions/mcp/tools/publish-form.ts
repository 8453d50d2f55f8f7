import { z } from "zod";
import { publishForm } from "../../services/drafts.ts";
import { slug } from "../args.ts";
import { defineTool } from "../tool.ts";

export const publishFormTool = defineTool({
  name: "publish_form",
  title: "Publish a draft",
  description:
    "Make a draft form (create_form with status draft) live at its public_url and commit its file. Its test answers stay out of counts; clear them with DELETE /api/forms/{slug}/responses?test=true.",
  input: z.object({ slug }),
  output: z.object({
    slug: z.string(),
    status: z.string(),
    published: z.boolean(),
    public_url: z.string(),
    preview_url: z.string().optional(),
  }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  run: (ctx, account, a) => publishForm(ctx, account, a.slug),
});
