import { z } from "zod";
import { deleteResponses } from "../../services/delete-responses.ts";
import { conditions, slug } from "../args.ts";
import { DELETE, defineTool } from "../tool.ts";

export const deleteResponsesTool = defineTool({
  name: "delete_responses",
  title: "Delete responses",
  description: "Erase the responses matching where, as delete_response does.",
  input: z.object({ slug, where: conditions }),
  output: z.object({ deleted: z.number() }),
  grant: { rest: "DELETE /api/forms/:slug/responses" },
  annotations: DELETE,
  run: (ctx, account, a) =>
    deleteResponses(ctx, account, a.slug, { since: null, until: null }, a.where),
});
