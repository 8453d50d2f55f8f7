import type { Context } from "hono";
import type { AppContext } from "../context.ts";
import type { Account } from "../services/accounts.ts";
import type { AuditedOperation } from "./actions.ts";
import { auditDetail, recordAudit } from "./log.ts";

/** The `slug` of a JSON answer (a form made or replaced by the call), if it names one. */
async function answerSlug(res: Response): Promise<string | null> {
  if (!(res.headers.get("content-type") ?? "").includes("json")) return null;
  const body = (await res
    .clone()
    .json()
    .catch(() => null)) as { slug?: unknown } | null;
  return typeof body?.slug === "string" ? body.slug : null;
}

/**
 * After a REST operation answered (requireKey, auth.ts, calls this for every route with a key):
 * a successful one that route-scopes.ts gives an audit action is written to the audit log, with
 * the path's other parameters and the query as its details.
 */
export async function auditRest(
  ctx: AppContext,
  c: Context,
  account: Account,
  op: AuditedOperation | undefined,
): Promise<void> {
  if (!op || c.error || c.res.status >= 400) return;
  const { slug, ...params } = c.req.param() as Record<string, string>;
  const form = (op.form === "answer" ? await answerSlug(c.res) : null) ?? slug ?? null;
  await recordAudit(ctx, account, {
    action: op.action,
    form,
    detail: auditDetail({ ...params, ...c.req.query() }),
  });
}
