import { z } from "zod";
import { publishForm } from "../../services/drafts.ts";
import { slug } from "../args.ts";
import { defineTool, WRITE } from "../tool.ts";

export const publishFormTool = defineTool({
  name: "publish_form",
  title: "Publish a draft",
  description: "Make a draft live.",
  input: z.object({ slug }),
  output: z.looseObject({ public_url: z.string() }),
  grant: { rest: "POST /api/forms/:slug/publish" },
  annotations: { ...WRITE, idempotentHint: true },
  run: (ctx, account, a) => publishForm(ctx, account, a.slug),
});
