import type { Context, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { raise } from "../src/core/errors.ts";
import { auditRest } from "./audit/rest.ts";
import type { AppContext } from "./context.ts";
import { sha256Hex } from "./crypto.ts";
import { clientAddress, type TrustedProxies } from "./http/client-address.ts";
import { routeScope } from "./route-scopes.ts";
import { needAllForms, needForm, needScope } from "./scopes.ts";
import { type Account, accountForKey } from "./services/accounts.ts";
import { hit, refuseOver } from "./services/rate-limit.ts";

export type Env = { Variables: { account: Account } };

/** The bearer token of a request, or null. */
export function bearer(header: string | undefined): string | null {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? "");
  return m ? m[1]! : null;
}

/** Resolves the calling account from `Authorization: Bearer <key>`; 401 when missing or wrong. */
export async function authenticate(ctx: AppContext, header: string | undefined): Promise<Account> {
  const key = bearer(header);
  if (!key) return raise("unauthorized", "Send your API key as `Authorization: Bearer <key>`.");
  // the bucket is the key's hash, known before the key is looked up: a refused request reads no
  // table, and only a key that exists is counted (made-up keys leave no rows behind)
  const limit = ctx.config.rateApi;
  const bucket = limit > 0 ? `api:${await sha256Hex(key)}` : "";
  if (limit > 0) refuseOver(ctx, bucket, limit);
  const account = await accountForKey(ctx, key);
  if (!account)
    return raise("unauthorized", "The API key is not valid (revoked, or never issued).");
  hit(ctx, bucket, limit);
  return account;
}

/**
 * The key, then what it may do (SPEC §23): the scope the operation needs (route-scopes.ts, by
 * method and route pattern), and for a key limited to forms, the form in the path; once answered,
 * the audit log's row (audit/rest.ts). Registered on each route, so `routePath` is the route's
 * own pattern.
 */
export function requireKey(ctx: AppContext): MiddlewareHandler<Env> {
  return async (c, next) => {
    const account = await authenticate(ctx, c.req.header("authorization"));
    account.ip = clientIp(c, ctx.config.trustedProxies) ?? null;
    const [method, route] = [c.req.method, routePath(c)];
    const needed = routeScope(method, route);
    const what = `${method} ${route.replace(/:([a-z]+)(\{[^/]*\})?/gi, "{$1}")}`;
    needScope(account, needed.scope, what);
    if (needed.account) needAllForms(account, what);
    const slug = c.req.param("slug");
    if (slug !== undefined) needForm(account, slug);
    c.set("account", account);
    await next();
    // every read of responses and every change, once it succeeded (SPEC §26)
    await auditRest(ctx, c, account, method === "HEAD" ? undefined : needed.audit);
  };
}

/**
 * The client address as FORMDOWN_TRUSTED_PROXIES says (http/client-address.ts): the socket's peer
 * comes from the Node adapter (`incoming`) or the Deno entry (`remoteAddr`).
 */
export function clientIp(c: Context, trust: TrustedProxies): string | undefined {
  const env = c.env as
    | { incoming?: { socket?: { remoteAddress?: string } }; remoteAddr?: string }
    | undefined;
  const peer = env?.incoming?.socket?.remoteAddress ?? env?.remoteAddr;
  return clientAddress(peer, c.req.header("x-forwarded-for"), trust);
}
