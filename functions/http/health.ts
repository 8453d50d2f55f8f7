import pkg from "../../package.json" with { type: "json" };
import type { AppContext } from "../context.ts";
import { UNAVAILABLE } from "../db/outage.ts";
import { webhookKeyProblem } from "../webhooks/key-check.ts";
import { configWarnings, mailWarnings, overdue } from "./operations.ts";

/**
 * `GET /api/health`: 200 `{ok: true, database: "up"}` when the database answers, else 503
 * `{ok: false, database: "down", error, code: "unavailable"}` with Retry-After. It never waits
 * out an outage (a load balancer's check must answer fast): the adapter's ping fails at once
 * while the database is known to be down. With `?detail=1` (`formdown doctor`) it adds what an
 * operator must hear about: emails and deliveries overdue, links that would point at localhost,
 * and as errors a webhook key the database does not know and upload storage not shared.
 */

export async function health(ctx: AppContext, detail = false): Promise<Response> {
  const WHO = { version: pkg.version, instance: ctx.config.instance };
  try {
    if (ctx.db.ping) await ctx.db.ping();
    else await ctx.db.query("select 1");
    // the load balancer's probes say this instance still runs (storage/shared-check.ts, loaded
    // when first asked: the edge function's cold start does without it): at most one
    // statement a minute, never waited for
    const storage = import("../storage/shared-check.ts");
    if (!detail) storage.then((s) => s.renewStorageProbe(ctx)).catch(() => {});
    const problems = detail
      ? await Promise.all([
          webhookKeyProblem(ctx),
          storage.then((s) => s.sharedStorageProblem(ctx)).catch(() => null),
        ])
      : [];
    const more = detail
      ? {
          overdue: await overdue(ctx),
          warnings: [...configWarnings(ctx.config), ...mailWarnings(ctx)],
          errors: problems.filter((p) => p !== null),
        }
      : {};
    return Response.json(
      { ok: true, database: "up", ...WHO, ...more },
      { headers: { "cache-control": "no-store" } },
    );
  } catch {
    return Response.json(
      {
        ok: false,
        database: "down",
        ...WHO,
        error: UNAVAILABLE.error,
        code: UNAVAILABLE.code,
      },
      {
        status: 503,
        headers: { "retry-after": String(UNAVAILABLE.retryAfter), "cache-control": "no-store" },
      },
    );
  }
}
