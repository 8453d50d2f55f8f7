import { z } from "zod";
import { exportResponses } from "../../insights/export.ts";
import { includeTest, range, since, slug, until, where } from "../args.ts";
import { defineTool, READ } from "../tool.ts";

/** Exports are returned inline; beyond this, use the REST export endpoint, which streams. */
const MAX_INLINE = 5 * 1024 * 1024;

export const exportResponsesTool = defineTool({
  name: "export_responses",
  title: "Export responses",
  description: `Responses inline (up to ${MAX_INLINE / 1024 / 1024} MB, then truncated: true).`,
  input: z.object({
    slug,
    format: z.enum(["csv", "json", "markdown"]).default("csv"),
    since,
    until,
    include_test: includeTest,
    where,
  }),
  output: z.object({ format: z.string(), content: z.string(), truncated: z.boolean().optional() }),
  annotations: READ,
  run: async (ctx, account, a) => {
    const out = await exportResponses(
      ctx,
      account,
      a.slug,
      a.format,
      range(a),
      a.include_test,
      a.where,
    );
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
