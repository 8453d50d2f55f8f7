import { z } from "zod";
import { standaloneCharts } from "../../../src/core/charts/svg.ts";
import { responseReport, responseReportHtml } from "../../insights/report.ts";
import { slug } from "../args.ts";
import { defineTool, EXTRA_CONTENT, type ImageContent, READ } from "../tool.ts";

/** Enough for every field of a long survey; an agent rarely shows more. */
const MAX_CHART_IMAGES = 16;

export const getReportTool = defineTool({
  name: "get_response_report",
  title: "Responses report",
  description:
    'A period\'s responses summarised as markdown and as data (summary.fields: answered, option counts and shares, mean/median, nps {score, promoters, passives, detractors}, average rank, text answers newest first with more = how many were left out: raise text_limit or page with list_responses). format "html": one self-contained page with charts, each chart also as an SVG image to show the owner.',
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
    format: z
      .enum(["markdown", "html"])
      .default("markdown")
      .describe("markdown (with summary), or html: a page with SVG charts, also as images"),
  }),
  output: z.object({
    period: z.string(),
    markdown: z.string().optional(),
    summary: z
      .object({
        responses: z.number(),
        fields: z.array(z.looseObject({ id: z.string(), type: z.string(), answered: z.number() })),
      })
      .optional(),
    format: z.literal("html").optional(),
    html: z.string().optional(),
  }),
  annotations: READ,
  run: async (ctx, account, a) => {
    if (a.format !== "html")
      return responseReport(ctx, account, a.slug, a.period, {
        field: a.field,
        textLimit: a.text_limit,
      });
    const { period, html } = await responseReportHtml(ctx, account, a.slug, a.period);
    const out = { period, format: "html", html };
    const images: ImageContent[] = standaloneCharts(html)
      .slice(0, MAX_CHART_IMAGES)
      .map((svg) => ({
        type: "image",
        mimeType: "image/svg+xml",
        data: Buffer.from(svg).toString("base64"),
      }));
    // the images travel as content blocks only, not inside the JSON (see server.ts)
    Object.defineProperty(out, EXTRA_CONTENT, { value: images });
    return out;
  },
});
