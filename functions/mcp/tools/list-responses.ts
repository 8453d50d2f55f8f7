import { z } from "zod";
import { listRecords } from "../../services/responses.ts";
import { includeTest, range, since, slug, until } from "../args.ts";
import { responseRecord } from "../outputs.ts";
import { defineTool, READ } from "../tool.ts";

export const listResponsesTool = defineTool({
  name: "list_responses",
  title: "List responses",
  description:
    "Newest first, optionally between dates; payload: {field id: answer} (+ score on quizzes).",
  input: z.object({
    slug,
    page: z.number().int().min(1).default(1),
    limit: z.number().int().min(1).max(200).default(50).describe("Per page"),
    since,
    until,
    include_test: includeTest,
  }),
  output: z.object({
    responses: z.array(responseRecord),
    page: z.number(),
    limit: z.number(),
    total: z.number(),
  }),
  annotations: READ,
  run: async (ctx, account, a) => {
    const { records, total } = await listRecords(
      ctx,
      account,
      a.slug,
      range(a),
      a.limit,
      (a.page - 1) * a.limit,
      a.include_test,
    );
    return { responses: records, page: a.page, limit: a.limit, total };
  },
});
