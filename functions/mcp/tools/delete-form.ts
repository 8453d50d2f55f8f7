import { z } from "zod";
import { deleteForm } from "../../services/forms.ts";
import { slug } from "../args.ts";
import { DELETE, defineTool } from "../tool.ts";

export const deleteFormTool = defineTool({
  name: "delete_form",
  title: "Delete a form",
  description:
    "For good, with its responses, files, webhooks and form file; to keep responses: update_form_access closed.",
  input: z.object({ slug }),
  output: z.object({ deleted: z.boolean() }),
  grant: { rest: "DELETE /api/forms/:slug" },
  annotations: DELETE,
  run: async (ctx, account, a) => {
    await deleteForm(ctx, account, a.slug);
    return { deleted: true, slug: a.slug };
  },
});
