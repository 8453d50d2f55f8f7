import type { Context } from "hono";
import { uniqueSymbol } from "hono-openapi";
import { type Env, requireKey } from "../auth.ts";
import type { AppContext } from "../context.ts";
import { operation } from "../contracts/common.ts";
import type { Account } from "../services/accounts.ts";

/**
 * An owner's operation as one middleware: the key check (auth.ts requireKey: scope, forms, the
 * audit row) carrying the operation's OpenAPI description, so each documented operation of the
 * owner's API is a keyed one, declared once. A route with no key says `PUBLIC` through `op`.
 */
export const keyed =
  (ctx: AppContext) =>
  (...args: Parameters<typeof operation>) =>
    Object.assign(requireKey(ctx), { [uniqueSymbol]: { spec: operation(...args) } });

/** A keyed operation's service call: the key's account, the path's `slug` (if any), the request. */
type Run = (account: Account, slug: string, c: Context<Env, string>) => Promise<unknown>;

/** A handler answering the service's value as JSON, with `status`. */
export const answer =
  (run: Run, status: 200 | 201 | 202 = 200) =>
  async (c: Context<Env, string>) =>
    c.json((await run(c.get("account"), c.req.param("slug")!, c)) as object, status);

/** The same for an operation that answers 204 with no body. */
export const nothing = (run: Run) => async (c: Context<Env, string>) => {
  await run(c.get("account"), c.req.param("slug")!, c);
  return c.body(null, 204);
};
