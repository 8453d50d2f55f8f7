import { z } from "zod";
import { responseReport } from "../../insights/report.ts";
import { slug } from "../args.ts";
import { defineTool, READ } from "../tool.ts";

export const getReportTool = defineTool({
  name: "get_response_report",
  title: "Responses report",
  description:
    "A period's responses summarised as markdown and as data (summary.fields: answered, option counts and shares, mean/median, nps {score, promoters, passives, detractors}, average rank, text answers newest first with more = how many were left out: raise text_limit or page with list_responses).",
  input: z.object({
    slug,
    period: z.enum(["7d", "30d", "90d", "all"]).default("7d").describe("7d, 30d, 90d or all"),
    field: z.string().optional().describe("Only this field's summary (its id)"),
    text_limit: z
      .number()
      .int()
      .min(1)
      .max(500)
      .default(5)
      .describe("Text answers per field (max 500)"),
  }),
  output: z.object({
    period: z.string(),
    markdown: z.string(),
    summary: z.object({
      responses: z.number(),
      fields: z.array(z.looseObject({ id: z.string(), type: z.string(), answered: z.number() })),
    }),
  }),
  annotations: READ,
  run: (ctx, account, a) =>
    responseReport(ctx, account, a.slug, a.period, { field: a.field, textLimit: a.text_limit }),
});
