import { z } from "zod";
import { pageSize } from "../../contracts/common.ts";
import { listRecords } from "../../services/responses.ts";
import { includeTest, range, since, slug, until, where } from "../args.ts";
import { responseRecord } from "../outputs.ts";
import { defineTool, READ } from "../tool.ts";

export const listResponsesTool = defineTool({
  name: "list_responses",
  title: "List responses",
  description:
    "Newest first; payload: {field id: answer}; since <= submitted_at < until (ISO). where: [{field, op, value}], all hold; op eq neq gt lt gte lte includes excludes contains answered unanswered; field also submitted_at, version, lang.",
  input: z.object({
    slug,
    page: z.number().int().min(1).default(1),
    limit: pageSize(200, 50),
    since,
    until,
    include_test: includeTest,
    where,
    status: z.enum(["complete", "partial", "all"]).optional(),
  }),
  output: z.object({
    responses: z.array(responseRecord),
    total: z.number(),
  }),
  grant: { rest: "GET /api/forms/:slug/responses" },
  annotations: READ,
  run: async (ctx, account, a) => {
    const { records, total } = await listRecords(ctx, account, a.slug, { ...a, ...range(a) });
    return { responses: records, page: a.page, limit: a.limit, total };
  },
});
