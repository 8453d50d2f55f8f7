import type { Hono } from "hono";
import { type Env, requireKey } from "../auth.ts";
import type { AppContext } from "../context.ts";
import { includeTest, parseInstant, parseInteger } from "../services/responses.ts";
import { exportResponses, parseFormat, toStream } from "./export.ts";
import { listOutbox } from "./outbox.ts";
import { parsePeriod, parseReportFormat, responseReport, responseReportHtml } from "./report.ts";
import { formStats } from "./stats.ts";

const EXT = { csv: "csv", json: "json", markdown: "md" } as const;

/** The HTML report needs nothing from outside itself, and the policy says so. */
export const HTML_HEADERS = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy":
    "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "cache-control": "no-store",
};

export function insightRoutes(app: Hono<Env>, ctx: AppContext): void {
  const key = requireKey(ctx);
  // test answers (SPEC §16) only when asked for, on every read of responses
  const withTest = (c: { req: { query: (name: string) => string | undefined } }) =>
    includeTest(c.req.query("include_test"), "include_test");
  for (const name of ["responses", "submissions"]) {
    app.get(`/api/forms/:slug/${name}/export`, key, async (c) => {
      const format = parseFormat(c.req.query("format"));
      const range = {
        since: parseInstant("since", c.req.query("since")),
        until: parseInstant("until", c.req.query("until")),
      };
      const slug = c.req.param("slug");
      const where = c.req.query("where");
      const out = await exportResponses(
        ctx,
        c.get("account"),
        slug,
        format,
        range,
        withTest(c),
        where,
      );
      return new Response(toStream(out.chunks()), {
        headers: {
          "content-type": out.contentType,
          "content-disposition": `attachment; filename="${out.slug}-responses.${EXT[format]}"`,
          "cache-control": "no-store",
        },
      });
    });
  }
  app.get("/api/forms/:slug/stats", key, async (c) =>
    c.json(
      await formStats(
        ctx,
        c.get("account"),
        c.req.param("slug"),
        Date.now(),
        withTest(c),
        c.req.query("where"),
      ),
    ),
  );
  app.get("/api/forms/:slug/report", key, async (c) => {
    const period = parsePeriod(c.req.query("period"));
    const format = parseReportFormat(c.req.query("format"));
    const options = { withTest: withTest(c), where: c.req.query("where") };
    const slug = c.req.param("slug");
    if (format === "html") {
      const report = await responseReportHtml(ctx, c.get("account"), slug, period, options);
      return c.body(report.html, 200, HTML_HEADERS);
    }
    const report = await responseReport(ctx, c.get("account"), slug, period, options);
    return c.body(report.markdown, 200, { "content-type": "text/markdown; charset=utf-8" });
  });
  app.get("/api/outbox", key, async (c) => {
    const limit = parseInteger("limit", c.req.query("limit"), 50, 1, 200);
    const offset = parseInteger("offset", c.req.query("offset"), 0, 0, 100_000_000);
    return c.json(await listOutbox(ctx, c.get("account"), limit, offset));
  });
}
