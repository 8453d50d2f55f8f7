// The pieces every contract shares, declared once: the error answer, the access password, list
// bounds, flags, time ranges, where, and the glue that makes a zod schema a route's validator and
// its OpenAPI description (hono-openapi reads both from the route's middlewares).

import type { MiddlewareHandler } from "hono";
import {
  type DescribeRouteOptions,
  describeRoute,
  resolver,
  uniqueSymbol,
  validator,
} from "hono-openapi";
import { z } from "zod";
import { type ErrorCode, raise } from "../../src/core/errors.ts";
import { formatPath } from "../../src/core/validate-form.ts";
import { isoInstant } from "../../src/core/where/where.ts";
import type { Env } from "../auth.ts";
import { readJson } from "../http/body.ts";

/** Every failure's body (SPEC §7): `details` lists field problems, or is a deploy plan. */
export const errorBody = z.object({
  error: z.string(),
  code: z.string(),
  details: z
    .union([z.array(z.object({ field: z.string(), message: z.string() })), z.looseObject({})])
    .optional(),
});

export const accessModes = z.enum(["public", "link", "password", "closed", "invite"]);
/** A password form's password: what the owner sets and what a respondent sends. */
export const accessPassword = z.string().min(4).max(200);

const between = (min: number, max: number) => ({ error: `must be between ${min} and ${max}` });
/** A whole-number query parameter within [min, max]. */
export const whole = (min: number, max: number, fallback: number) =>
  z.coerce
    .number({ error: "must be a whole number" })
    .int({ error: "must be a whole number" })
    .min(min, between(min, max))
    .max(max, between(min, max))
    .default(fallback);
/** A list's page size: 1–200, 50 unless said (variant B and deliveries: 1–100, 25). */
export const limit = (max = 200, fallback = 50) =>
  whole(1, max, fallback).describe(`How many (1–${max}, default ${fallback})`);
/** The same page size as a JSON number (an MCP tool's argument). */
export const pageSize = (max = 200, fallback = 50) =>
  z.number().int().min(1).max(max).default(fallback);
export const offset = whole(0, 100_000_000, 0).describe("How many to skip");

/** `true` / `false` in a query (absent: false). */
export const flag = (description: string) =>
  z
    .enum(["true", "false"], { error: "must be true or false" })
    .optional()
    .transform((v) => v === "true")
    .describe(description);

/** since/until: an ISO timestamp with offset, or a bare date meaning midnight UTC (years 1–9999). */
const instant = z
  .string()
  .optional()
  .transform((v, c) => {
    if (!v) return null;
    const at = isoInstant(v);
    if (at) return at;
    c.addIssue({ code: "custom", message: "must be an ISO date or timestamp" });
    return z.NEVER;
  })
  .describe("An ISO date (midnight UTC) or timestamp with offset");
export const range = { since: instant, until: instant };

const includeTest = flag(
  "true: the test answers too (sent with the owner's key or from a preview page; flagged test: true in lists and exports)",
);
/** A filter (SPEC §18) on every read of responses, and on deleting them. */
const where = z
  .string()
  .optional()
  .describe(
    'A URL-encoded JSON array of conditions {field, op, value}, all of which must hold, e.g. [{"field":"recommend","op":"lte","value":6}]. op: eq, neq, gt, lt, gte, lte (numbers, dates), includes, excludes (checkbox, ranking), contains (text, any case), answered, unanswered (no value). field: a field id (a renamed field matches its earlier answers too), or submitted_at (ISO value), version, lang (eq/neq). An unknown field, an op its type cannot take or a bad value: 400 invalid_request naming the condition (where[i]).',
  );
export const reads = { include_test: includeTest, where };

/** The one validation hook: a bad query or path is 400 invalid_param, a bad body validation_failed. */
function refuse(result: {
  success: boolean;
  target: string;
  error?: readonly {
    message: string;
    path?: readonly (PropertyKey | { key: PropertyKey })[];
    params?: { code?: ErrorCode };
  }[];
}) {
  if (result.success) return;
  const details = (result.error ?? []).map((issue) => ({
    field: formatPath((issue.path ?? []).map((p) => (typeof p === "object" ? p.key : p))),
    message: issue.message,
  }));
  if (result.target === "json") {
    const n = details.length;
    raise("validation_failed", `The body has ${n} ${n === 1 ? "problem" : "problems"}.`, {
      details,
    });
  }
  const first = details[0];
  raise(
    result.error?.[0]?.params?.code ?? "invalid_param",
    first ? `${first.field} ${first.message}.` : "Bad parameters.",
    {
      details,
    },
  );
}

/** The same bounds outside a route (an MCP tool's arguments): 400 invalid_param as in a query. */
export function parseQuery<T extends z.ZodRawShape>(shape: T, value: object) {
  const parsed = z.object(shape).safeParse(value);
  if (!parsed.success) refuse({ success: false, target: "query", error: parsed.error.issues });
  return parsed.data as z.output<z.ZodObject<T>>;
}

/** Validates (and documents) the query: handlers read `c.req.valid("query")`. */
export const query = <T extends z.ZodRawShape>(shape: T) =>
  validator("query", z.object(shape), refuse as never);

/**
 * Validates (and documents) a JSON body read with the server's own reader (size cap, depth
 * cap, one clear answer for malformed JSON): handlers read `c.req.valid("json")`.
 */
export function body<S extends z.ZodType>(schema: S, max?: number) {
  const read: MiddlewareHandler<
    Env,
    string,
    { in: { json: z.input<S> }; out: { json: z.output<S> } }
  > = async (c, next) => {
    const parsed = schema.safeParse(await readJson(c, max));
    if (!parsed.success) refuse({ success: false, target: "json", error: parsed.error.issues });
    c.req.addValidatedData("json", parsed.data as object);
    await next();
  };
  return Object.assign(read, { [uniqueSymbol]: { target: "json", ...resolver(schema) } });
}

type Responses = NonNullable<DescribeRouteOptions["responses"]>;
export const STATUS = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  TooLarge: 413,
  Captcha: 422,
  RateLimited: 429,
  HeadersTooLarge: 431,
} as const;
export type ErrorName = keyof typeof STATUS;
/** References to components.responses (openapi.ts declares each once). */
export const errors = (...names: ErrorName[]): Responses =>
  Object.fromEntries(names.map((n) => [STATUS[n], { $ref: `#/components/responses/${n}` }]));
/** What a key-protected operation on one of your forms can answer; REFUSED: a bad query or body too. */
export const OWNER = errors("Unauthorized", "Forbidden", "NotFound", "RateLimited");
export const REFUSED = { ...errors("BadRequest"), ...OWNER };
/** An error answer (components.schemas.Error) that says more than its status's name. */
export const errorAnswer = (description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
});

/** A JSON answer whose schema is the zod contract (or a JSON Schema reference). */
export const json = (schema: z.ZodType | { $ref: string }, description = "OK") => ({
  description,
  content: {
    "application/json": { schema: schema instanceof z.ZodType ? resolver(schema) : schema },
  },
});
export const none = (description: string) => ({ description });

/** An operation's OpenAPI description: its stable operationId, a summary, its answers. */
export const operation = (
  operationId: string,
  summary: string,
  responses: Record<number, object>,
  extra: Record<string, unknown> = {},
): DescribeRouteOptions & { operationId: string } => ({
  operationId,
  summary,
  responses: responses as Responses,
  ...extra,
});
/** The route's OpenAPI description (a front route's is `front(operationId)`, contracts/front-ops.ts). */
export const op = (...args: Parameters<typeof operation>) => describeRoute(operation(...args));
/** For the endpoints anyone may call (no API key). */
export const PUBLIC = { security: [] };
/** A JSON body the service itself validates (its messages are the contract's), documented here. */
export const requestBody = (schema: z.ZodType, description?: string) => ({
  required: true,
  ...(description ? { description } : {}),
  content: { "application/json": { schema: resolver(schema) } },
});
