import { z } from "zod";
import { deleteResponse } from "../../services/delete-responses.ts";
import { slug } from "../args.ts";
import { DELETE, defineTool } from "../tool.ts";

export const deleteResponseTool = defineTool({
  name: "delete_response",
  title: "Delete a response",
  description:
    "For good (e.g. GDPR), a partial too, with its files and unsent emails; response.deleted webhooks are told.",
  input: z.object({
    slug,
    response_id: z.string(),
  }),
  output: z.object({ deleted: z.boolean() }),
  grant: { rest: "DELETE /api/forms/:slug/responses/:id" },
  annotations: DELETE,
  run: async (ctx, account, a) => {
    await deleteResponse(ctx, account, a.slug, a.response_id);
    return { deleted: true, response_id: a.response_id };
  },
});
