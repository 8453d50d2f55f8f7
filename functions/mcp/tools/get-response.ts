import { z } from "zod";
import { getRecord } from "../../services/responses.ts";
import { slug } from "../args.ts";
import { responseRecord } from "../outputs.ts";
import { defineTool, READ } from "../tool.ts";

export const getResponseTool = defineTool({
  name: "get_response",
  title: "Get one response",
  description: "By id (from list_responses, or a submit's response_id).",
  input: z.object({ slug, response_id: z.string() }),
  output: responseRecord,
  grant: { rest: "GET /api/forms/:slug/responses/:id{[0-9a-fA-F-]{36}}" },
  annotations: READ,
  run: (ctx, account, a) => getRecord(ctx, account, a.slug, a.response_id),
});
