import type { Hono } from "hono";
import { listAudit } from "../audit/list.ts";
import type { Env } from "../auth.ts";
import type { AppContext } from "../context.ts";
import { auditPage, auditQuery } from "../contracts/audit.ts";
import { json, query, REFUSED } from "../contracts/common.ts";
import { keyed } from "./operation.ts";

/** The audit log (SPEC §26), newest first. */
export function auditRoutes(app: Hono<Env>, ctx: AppContext): void {
  const op = keyed(ctx);
  app.get(
    "/api/audit",
    op(
      "listAudit",
      "The audit log: every read of responses and every change, who, what, when, from where (kept 365 days)",
      { 200: json(auditPage), ...REFUSED },
    ),
    query(auditQuery),
    async (c) => c.json(await listAudit(ctx, c.get("account"), c.req.valid("query"))),
  );
}
