// What a cold start's routes (health, respondents' endpoints) carry of their description: only
// their operationId. Neither zod nor hono-openapi is imported here, so an edge function woken by
// a health check or a submit does not evaluate them (bench/deno-cold.ts); the description itself
// (summary, answers, parameters, body) is declared once in contracts/public.ts under the same
// operationId, and functions/openapi.ts attaches it to these middlewares when it builds the
// document. Their query parameters are plain strings, read with `one` below.
import type { Context, MiddlewareHandler } from "hono";
import { raise } from "../../src/core/errors.ts";

/** The marker functions/openapi.ts looks for on a route's middlewares. */
export type FrontOperation = MiddlewareHandler & { frontOperation: string };

/** A front route's description, by its operationId: a pass-through until the document is built. */
export const front = (operationId: string): FrontOperation =>
  Object.assign<MiddlewareHandler, { frontOperation: string }>(
    async (_c, next) => {
      await next();
    },
    { frontOperation: operationId },
  );

/**
 * A query parameter given at most once (400 invalid_param when repeated, as a validated query
 * answers), and one of `allowed` when they are named.
 */
export function one(c: Context, name: string, allowed?: readonly string[]): string | undefined {
  const given = c.req.queries(name);
  const problem =
    given && given.length > 1
      ? "must be given once"
      : given && allowed && !allowed.includes(given[0]!)
        ? `must be ${allowed.join(" or ")}`
        : null;
  if (problem)
    raise("invalid_param", `${name} ${problem}.`, { details: [{ field: name, message: problem }] });
  return given?.[0];
}
