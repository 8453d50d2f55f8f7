import { z } from "zod";
import { responseReport } from "../../reports/report.ts";
import { REPORT_UI } from "../apps/ui-meta.ts";
import { includeTest, slug, where } from "../args.ts";
import { defineTool, EXTRA_CONTENT, READ, type TextContent } from "../tool.ts";

const summary = z.object({
  responses: z.number(),
  fields: z.array(z.looseObject({ id: z.string(), type: z.string(), answered: z.number() })),
});

export const getReportTool = defineTool({
  name: "get_response_report",
  title: "Responses report",
  description:
    "Markdown plus data per field (answered, option counts, mean/median, nps, rank, newest texts up to text_limit); html: a page with charts (2nd block).",
  input: z.object({
    slug,
    period: z.enum(["7d", "30d", "90d", "all"]).default("7d"),
    field: z.string().optional().describe("Only this field"),
    // text answers per field: the name and the description's "raise text_limit" say it
    text_limit: z.number().int().min(1).max(500).default(5),
    // the enums say their values; the description says what html is (tools/list ≤ 20,000 bytes)
    format: z.enum(["markdown", "html"]).default("markdown"),
    include_test: includeTest,
    where,
  }),
  output: z.object({
    period: z.string(),
    markdown: z.string().optional(),
    summary,
  }),
  grant: { rest: "GET /api/forms/:slug/report" },
  annotations: READ,
  meta: REPORT_UI,
  run: async (ctx, account, a) => {
    const options = {
      field: a.field,
      textLimit: a.text_limit,
      withTest: a.include_test,
      where: a.where,
    };
    const report = await responseReport(ctx, account, a.slug, a.period, options, a.format);
    if (report.format !== "html") return report;
    const { html, ...out } = report;
    // the page travels once, as its own content block: not inside the JSON text nor structuredContent
    const page: TextContent[] = [{ type: "text", text: html }];
    Object.defineProperty(out, EXTRA_CONTENT, { value: page });
    return out;
  },
});
