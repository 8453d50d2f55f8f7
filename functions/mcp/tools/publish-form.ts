import { z } from "zod";
import { publishForm } from "../../services/drafts.ts";
import { slug } from "../args.ts";
import { defineTool } from "../tool.ts";

export const publishFormTool = defineTool({
  name: "publish_form",
  title: "Publish a draft",
  description: "Make a draft live.",
  input: z.object({ slug }),
  output: z.looseObject({ public_url: z.string() }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  run: (ctx, account, a) => publishForm(ctx, account, a.slug),
});
