import { Buffer } from "node:buffer";
import { z } from "zod";
import { raise } from "../../../src/core/errors.ts";
import { exportResponses } from "../../exports/export.ts";
import { includeTest, range, since, slug, until, where } from "../args.ts";
import { defineTool, READ } from "../tool.ts";

/** Exports are returned inline; beyond this, use the REST export endpoint, which streams. */
const MAX_INLINE = 5 * 1024 * 1024;

export const exportResponsesTool = defineTool({
  name: "export_responses",
  title: "Export responses",
  description: `Inline, max ${MAX_INLINE / 1024 / 1024} MB (else truncated); xlsx in base64.`,
  input: z.object({
    slug,
    format: z.enum(["csv", "json", "markdown", "xlsx"]).default("csv"),
    since,
    until,
    include_test: includeTest,
    where,
  }),
  output: z.object({
    format: z.string(),
    content: z.string(),
    truncated: z.boolean().optional(),
  }),
  grant: { rest: "GET /api/forms/:slug/responses/export" },
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
    if (a.format === "xlsx") {
      // a zip cut short is no spreadsheet: refused whole, with the way that streams
      const parts: Uint8Array[] = [];
      let size = 0;
      for await (const chunk of out.chunks()) {
        const bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
        size += bytes.byteLength;
        if (size > (MAX_INLINE * 3) / 4)
          raise(
            "payload_too_large",
            "The XLSX is over the inline limit; download it from GET /api/forms/{slug}/responses/export?format=xlsx.",
          );
        parts.push(bytes);
      }
      return {
        format: "xlsx",
        encoding: "base64" as const,
        content: Buffer.concat(parts).toString("base64"),
      };
    }
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
