import type { Hono } from "hono";
import { raise } from "../../src/core/errors.ts";
import { renderReportHtml } from "../../src/core/report-html/document.ts";
import { renderResponseHtml } from "../../src/core/report-html/response-view.ts";
import type { Form } from "../../src/core/schema.ts";
import type { Env } from "../auth.ts";
import type { AppContext } from "../context.ts";
import { errors, op, PUBLIC, query } from "../contracts/common.ts";
import { htmlPage, period, signed } from "../contracts/responses.ts";
import { verifyViewLink } from "../links/view-links.ts";
import { periodReport } from "../reports/report.ts";
import { HTML_HEADERS } from "./reports.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const denied = () => raise("forbidden", "This link is not valid or has expired.");

/** Public, read-only pages behind signed, expiring links (functions/links/view-links.ts). */
export function viewRoutes(app: Hono<Env>, ctx: AppContext): void {
  const page = { 200: htmlPage, ...errors("Forbidden", "NotFound") };
  app.get(
    "/view/responses/:id",
    op(
      "viewResponse",
      "One response as a read-only HTML page, through a signed, expiring link from an email",
      page,
      PUBLIC,
    ),
    query(signed),
    async (c) => {
      const id = c.req.param("id");
      const { exp, sig } = c.req.valid("query");
      const ok = await verifyViewLink(ctx, { kind: "response", id }, exp, sig);
      if (!ok || !UUID.test(id)) denied();
      const [row] = await ctx.db.query<{
        id: string;
        submitted_at: string;
        payload: Record<string, unknown>;
        score: { points: number; max_points: number; percent: number } | null;
        definition: Form;
      }>(
        `select r.id, r.submitted_at, r.payload, r.score, f.definition
         from responses r join forms f on f.id = r.form_id where r.id = $1`,
        [id],
      );
      if (!row) raise("not_found", "This response no longer exists.");
      const html = renderResponseHtml(row!.definition, {
        ...row!,
        submitted_at: new Date(row!.submitted_at).toISOString(),
      });
      return c.body(html, 200, HTML_HEADERS);
    },
  );

  app.get(
    "/view/forms/:form_id/report",
    op("viewReport", "The HTML report through a signed, expiring link from an email", page, PUBLIC),
    query({ period: period.default("7d"), ...signed }),
    async (c) => {
      const formId = c.req.param("form_id");
      const { period, exp, sig } = c.req.valid("query");
      const ok = await verifyViewLink(ctx, { kind: "report", formId, period }, exp, sig);
      if (!ok || !UUID.test(formId)) denied();
      const [row] = await ctx.db.query<{
        id: string;
        slug: string;
        title: string;
        definition: Form;
      }>("select id, slug, title, definition from forms where id = $1", [formId]);
      if (!row) raise("not_found", "This form no longer exists.");
      const data = await periodReport(ctx, row!, period);
      return c.body(renderReportHtml(data), 200, HTML_HEADERS);
    },
  );
}
