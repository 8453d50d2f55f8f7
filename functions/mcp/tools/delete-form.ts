import { z } from "zod";
import { deleteForm } from "../../services/forms.ts";
import { defineTool } from "../tool.ts";

export const deleteFormTool = defineTool({
  name: "delete_form",
  title: "Delete a form",
  description:
    "Delete a form with everything it holds: its responses, uploaded files, webhooks and its form file in the repository (a commit). The public URL stops working. Cannot be undone; to stop accepting responses but keep them, use update_form_access with mode closed instead.",
  input: z.object({ slug: z.string().min(1).describe("The form's slug") }),
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
