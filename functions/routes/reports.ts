import type { Hono } from "hono";
import type { Env } from "../auth.ts";
import type { AppContext } from "../context.ts";
import { json, query, REFUSED, reads } from "../contracts/common.ts";
import {
  exportAnswer,
  exportQuery,
  reportAnswer,
  reportQuery,
  stats,
} from "../contracts/responses.ts";
import { exportResponses, toStream } from "../exports/export.ts";
import { responseReport } from "../reports/report.ts";
import { formStats } from "../reports/stats.ts";
import { keyed } from "./operation.ts";

const EXT = { csv: "csv", json: "json", markdown: "md", xlsx: "xlsx" } as const;

/** The HTML report needs nothing from outside itself, and the policy says so. */
export const HTML_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "cache-control": "no-store",
};

export function reportRoutes(app: Hono<Env>, ctx: AppContext): void {
  const op = keyed(ctx);
  for (const [name, Name, variant] of [
    ["responses", "Responses", "A"],
    ["submissions", "Submissions", "B"],
  ] as const) {
    app.get(
      `/api/forms/:slug/${name}/export`,
      op(`export${Name}`, `Export ${name} (variant ${variant})`, { 200: exportAnswer, ...REFUSED }),
      query(exportQuery),
      async (c) => {
        const { format, since, until, include_test, where, header, bom } = c.req.valid("query");
        const [account, slug] = [c.get("account"), c.req.param("slug")];
        const range = { since, until };
        const out = await exportResponses(ctx, account, slug, format, range, include_test, where, {
          header,
          bom,
        });
        return new Response(toStream(out.chunks()), {
          headers: {
            "content-type": out.contentType,
            ...(format === "xlsx" ? { "x-content-type-options": "nosniff" } : {}),
            "content-disposition": `attachment; filename="${out.slug}-responses.${EXT[format]}"`,
            "cache-control": "no-store",
          },
        });
      },
    );
  }
  app.get(
    "/api/forms/:slug/stats",
    op(
      "getFormStats",
      "Views, starts, responses, completion, 7-day sparkline and change",
      { 200: json(stats), ...REFUSED },
      {
        description:
          "With where, the responses and their drop-off and median are those of the segment; views, starts and progress beacons are not answers and stay the form's.",
      },
    ),
    query(reads),
    async (c) => {
      const { include_test, where } = c.req.valid("query");
      const [account, slug] = [c.get("account"), c.req.param("slug")];
      return c.json(await formStats(ctx, account, slug, Date.now(), include_test, where));
    },
  );
  app.get(
    "/api/forms/:slug/report",
    op(
      "getResponseReport",
      "A report of the period's responses, as Markdown or as one self-contained HTML page",
      { 200: reportAnswer, ...REFUSED },
      {
        description:
          'format=markdown (default): GFM text. format=html: one HTML document with inline CSS and SVG charts (a chart per summarised field, the 30-day trend, drop-off), no script and no external request; every chart has a <title> and a table of its numbers. With where, the report is of a segment and its heading says so ("… — 7 responses where recommend ≤ 6").',
      },
    ),
    query(reportQuery),
    async (c) => {
      const { period, format, include_test, where } = c.req.valid("query");
      const options = { withTest: include_test, where };
      const [account, slug] = [c.get("account"), c.req.param("slug")];
      const report = await responseReport(ctx, account, slug, period, options, format);
      if (report.format === "html") return c.body(report.html, 200, HTML_HEADERS);
      return c.body(report.markdown, 200, { "content-type": "text/markdown; charset=utf-8" });
    },
  );
}
