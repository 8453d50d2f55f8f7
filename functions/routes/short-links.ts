import type { Hono } from "hono";
import type { Env } from "../auth.ts";
import type { AppContext } from "../context.ts";
import { publicUrl } from "../services/form-view.ts";

/**
 * `short_url` (`/<code>`, at least one capital) and the slug-only URL (`/<slug>`) are served by
 * the API origin that names them (SPEC §17), on every runtime: a redirect to the form's page,
 * wherever it is served (services/form-view.ts publicUrl). The static host knows nothing of codes.
 */
export function shortLinkRoutes(app: Hono<Env>, ctx: AppContext): void {
  app.get("/:code{[A-Za-z0-9]{4,16}}", async (c, next) => {
    const code = c.req.param("code");
    // the owner app's page of teammates' results (SPEC §26), never a code
    if (code === "results") return next();
    const [row] = await ctx.db.query<{ handler: string; slug: string }>(
      /[A-Z]/.test(code)
        ? "select a.handler, f.slug from forms f join accounts a on a.id = f.account_id where f.short_code = $1"
        : "select a.handler, f.slug from forms f join accounts a on a.id = f.account_id where f.slug = $1 order by f.created_at limit 1",
      [code],
    );
    if (!row) return c.notFound();
    const search = new URL(c.req.url).search;
    return c.redirect(`${publicUrl(ctx, row)}${search}`, 302);
  });
}
