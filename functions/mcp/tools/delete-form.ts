import { z } from "zod";
import { deleteForm } from "../../services/forms.ts";
import { slug } from "../args.ts";
import { defineTool } from "../tool.ts";

export const deleteFormTool = defineTool({
  name: "delete_form",
  title: "Delete a form",
  description:
    "For good, with its responses, files, webhooks and form file; to keep responses: update_form_access closed.",
  input: z.object({ slug }),
  output: z.object({ deleted: z.boolean() }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  run: async (ctx, account, a) => {
    await deleteForm(ctx, account, a.slug);
    return { deleted: true, slug: a.slug };
  },
});
