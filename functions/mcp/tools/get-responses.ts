import { z } from "zod";
import { pageSize } from "../../contracts/common.ts";
import { listRecords } from "../../services/responses.ts";
import { slug } from "../args.ts";
import { defineTool, READ } from "../tool.ts";

export const getResponsesTool = defineTool({
  name: "get_responses",
  title: "Latest responses",
  description: "Newest first: list_responses with only a limit.",
  input: z.object({
    slug,
    limit: pageSize(200, 25),
  }),
  // its items as list_responses lists them, as the description says
  output: z.object({
    responses: z.array(z.record(z.string(), z.unknown())),
    total: z.number(),
  }),
  grant: { rest: "GET /api/forms/:slug/responses" },
  annotations: READ,
  run: async (ctx, account, a) => {
    const { records, total } = await listRecords(ctx, account, a.slug, { limit: a.limit });
    return { responses: records, limit: a.limit, total };
  },
});
