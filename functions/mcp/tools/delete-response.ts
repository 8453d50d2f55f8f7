import { z } from "zod";
import { deleteResponse } from "../../services/delete-responses.ts";
import { defineTool } from "../tool.ts";

export const deleteResponseTool = defineTool({
  name: "delete_response",
  title: "Delete a response",
  description:
    "Erase one response for good (e.g. a respondent's GDPR request): the response, its uploaded files and its unsent emails are deleted, stats and exports stop counting it, and webhooks subscribed to response.deleted are told. Cannot be undone. A response that is already gone answers not_found.",
  input: z.object({
    slug: z.string().min(1).describe("The form's slug"),
    response_id: z.string().describe("The response's id (a uuid, from list_responses)"),
  }),
  annotations: {
    readOnlyHint: false,
    destructiveHint: true,
    idempotentHint: true,
    openWorldHint: false,
  },
  run: async (ctx, account, a) => {
    await deleteResponse(ctx, account, a.slug, a.response_id);
    return { deleted: true, response_id: a.response_id };
  },
});
