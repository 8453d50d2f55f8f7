import { z } from "zod";
import { standaloneCharts } from "../../../src/core/charts/svg.ts";
import { exportResponses } from "../../insights/export.ts";
import { responseReport, responseReportHtml } from "../../insights/report.ts";
import { formStats } from "../../insights/stats.ts";
import { getRecord, listRecords, parseInstant } from "../../services/responses.ts";
import { defineTool, EXTRA_CONTENT, type ImageContent, READ } from "../tool.ts";

const slug = z.string().min(1).describe("The form's slug");
const since = z
  .string()
  .optional()
  .describe("Only responses at or after this ISO date or timestamp (a bare date is midnight UTC)");
const until = z.string().optional().describe("Only responses before this ISO date or timestamp");
const range = (a: { since?: string | undefined; until?: string | undefined }) => ({
  since: parseInstant("since", a.since),
  until: parseInstant("until", a.until),
});
/** Exports are returned inline; beyond this, use the REST export endpoint, which streams. */
const MAX_INLINE = 5 * 1024 * 1024;

export const listResponsesTool = defineTool({
  name: "list_responses",
  title: "List responses",
  description:
    "Page through a form's responses, newest first, optionally between two dates. Returns {responses, page, limit, total}; each response is {id, submitted_at, payload} (+ score on quizzes).",
  input: z.object({
    slug,
    page: z.number().int().min(1).default(1).describe("Page number, from 1"),
    limit: z.number().int().min(1).max(200).default(50).describe("Responses per page (max 200)"),
    since,
    until,
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
    );
    return { responses: records, page: a.page, limit: a.limit, total };
  },
});

export const getResponsesTool = defineTool({
  name: "get_responses",
  title: "Latest responses",
  description:
    "The latest responses of a form, newest first (a shortcut for list_responses with only a limit).",
  input: z.object({
    slug,
    limit: z.number().int().min(1).max(200).default(25).describe("How many (max 200)"),
  }),
  annotations: READ,
  run: async (ctx, account, a) => {
    const { records, total } = await listRecords(
      ctx,
      account,
      a.slug,
      { since: null, until: null },
      a.limit,
      0,
    );
    return { responses: records, limit: a.limit, total };
  },
});

export const getResponseTool = defineTool({
  name: "get_response",
  title: "Get one response",
  description: "One response of a form by its id (as returned by list_responses or by a submit).",
  input: z.object({ slug, response_id: z.string().describe("The response's id (a uuid)") }),
  annotations: READ,
  run: (ctx, account, a) => getRecord(ctx, account, a.slug, a.response_id),
});

export const getStatsTool = defineTool({
  name: "get_form_stats",
  title: "Form stats",
  description:
    "Views, starts, responses, completion rate, a 7-day sparkline (UTC days) and the change against the previous 7 days.",
  input: z.object({ slug }),
  annotations: READ,
  run: (ctx, account, a) => formStats(ctx, account, a.slug),
});

export const getReportTool = defineTool({
  name: "get_response_report",
  title: "Responses report",
  description:
    'A report of a form\'s responses for a period: totals, completion, per-question summaries (choices, averages, NPS, rankings, matrices, recent text), quiz scores and drop-off. format "markdown" (default) is good to paste into an issue or chat; format "html" returns one self-contained HTML page with charts, and each chart also as an SVG image (image/svg+xml) to show the owner.',
  input: z.object({
    slug,
    period: z.enum(["7d", "30d", "90d", "all"]).default("7d").describe("7d, 30d, 90d or all"),
    format: z
      .enum(["markdown", "html"])
      .default("markdown")
      .describe("markdown, or html: a page with SVG charts, the charts also as images"),
  }),
  annotations: READ,
  run: async (ctx, account, a) => {
    if (a.format !== "html") return responseReport(ctx, account, a.slug, a.period);
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

/** Enough for every field of a long survey; an agent rarely shows more. */
const MAX_CHART_IMAGES = 16;

export const exportResponsesTool = defineTool({
  name: "export_responses",
  title: "Export responses",
  description: `Export a form's responses as CSV, JSON or a Markdown table, returned inline as text (up to ${MAX_INLINE / 1024 / 1024} MB; for more, use the REST export endpoint, which streams).`,
  input: z.object({
    slug,
    format: z.enum(["csv", "json", "markdown"]).default("csv").describe("csv, json or markdown"),
    since,
    until,
  }),
  annotations: READ,
  run: async (ctx, account, a) => {
    const out = await exportResponses(ctx, account, a.slug, a.format, range(a));
    let content = "";
    const decoder = new TextDecoder();
    for await (const chunk of out.chunks()) {
      content += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
      if (content.length > MAX_INLINE)
        return { format: a.format, content: content.slice(0, MAX_INLINE), truncated: true };
    }
    return { format: a.format, content };
  },
});
