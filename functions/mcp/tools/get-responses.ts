import { z } from "zod";
import { pageSize } from "../../contracts/common.ts";
import { listRecords } from "../../services/responses.ts";
import { slug } from "../args.ts";
import { responseRecord } from "../outputs.ts";
import { defineTool, READ } from "../tool.ts";

export const getResponsesTool = defineTool({
  name: "get_responses",
  title: "Latest responses",
  description: "Newest first: list_responses with only a limit.",
  input: z.object({
    slug,
    limit: pageSize(200, 25),
  }),
  output: z.object({ responses: z.array(responseRecord), limit: z.number(), total: z.number() }),
  annotations: READ,
  run: async (ctx, account, a) => {
    const { records, total } = await listRecords(ctx, account, a.slug, { limit: a.limit });
    return { responses: records, limit: a.limit, total };
  },
});
