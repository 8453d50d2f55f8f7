// The small builders the hand-written parts of the OpenAPI document are made of.
export type Schema = Record<string, unknown>;
export const json = (schema: Schema, description = "OK") => ({
  description,
  content: { "application/json": { schema } },
});
export const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
export const err = (...names: string[]) =>
  Object.fromEntries(names.map((n) => [STATUS[n], { $ref: `#/components/responses/${n}` }]));
const STATUS: Record<string, string> = {
  BadRequest: "400",
  Unauthorized: "401",
  Forbidden: "403",
  NotFound: "404",
  Conflict: "409",
  TooLarge: "413",
  Captcha: "422",
  RateLimited: "429",
  HeadersTooLarge: "431",
};
/**
 * What any request can get before a route sees it: the server answers malformed HTTP with 400 and
 * oversized headers with 431, both `{error, code}` (functions/node/client-error.ts).
 */
export const parser = () => err("BadRequest", "HeadersTooLarge");
export const obj = (
  properties: Record<string, Schema>,
  required = Object.keys(properties),
): Schema => ({
  type: "object",
  properties,
  required,
});
export const str = { type: "string" };
export const int = { type: "integer" };
export const num = { type: "number" };
export const slug = { name: "slug", in: "path", required: true, schema: str };
export const id = {
  name: "id",
  in: "path",
  required: true,
  schema: { type: "string", format: "uuid" },
};
export const q = (name: string, schema: Schema = str) => ({
  name,
  in: "query",
  required: false,
  schema,
});
/** Test answers (the owner's key, a preview page) are left out of every read unless asked for (SPEC §16). */
export const includeTest = q("include_test", {
  enum: ["true", "false"],
  description:
    "true: the test answers too (sent with the owner's key or from a preview page; flagged test: true in lists and exports)",
});
/** A filter (SPEC §18) on every read of responses, and on deleting them. */
export const where = q("where", {
  type: "string",
  description:
    'A URL-encoded JSON array of conditions {field, op, value}, all of which must hold, e.g. [{"field":"recommend","op":"lte","value":6}]. op: eq, neq, gt, lt, gte, lte (numbers, dates), includes, excludes (checkbox, ranking), contains (text, any case), answered, unanswered (no value). field: a field id (a renamed field matches its earlier answers too), or submitted_at (ISO value), version, lang (eq/neq). An unknown field, an op its type cannot take or a bad value: 400 invalid_request naming the condition (where[i]).',
  example: '[{"field":"recommend","op":"lte","value":6}]',
});
export const owner = err("Unauthorized", "Forbidden", "NotFound", "RateLimited");
export const pub = { security: [] };
