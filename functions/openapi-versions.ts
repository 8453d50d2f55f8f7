// Versions and plans (SPEC §16): the history of a form and what a change would do.
// (its own small helpers: openapi-paths.ts imports this file)
type Schema = Record<string, unknown>;
const str = { type: "string" };
const int = { type: "integer" };
const obj = (properties: Record<string, Schema>, required = Object.keys(properties)): Schema => ({
  type: "object",
  properties,
  required,
});
const json = (schema: Schema, description = "OK") => ({
  description,
  content: { "application/json": { schema } },
});
const slug = { name: "slug", in: "path", required: true, schema: str };
const q = (name: string, schema: Schema) => ({ name, in: "query", required: false, schema });
const err = (...codes: [string, string][]) =>
  Object.fromEntries(
    codes.map(([status, name]) => [status, { $ref: `#/components/responses/${name}` }]),
  );
const OWNER: [string, string][] = [
  ["401", "Unauthorized"],
  ["403", "Forbidden"],
  ["404", "NotFound"],
];

const change = obj(
  {
    kind: {
      enum: [
        "form_created",
        "field_added",
        "field_removed",
        "field_renamed",
        "field_type_changed",
        "option_added",
        "option_removed",
        "option_renamed",
        "rule_changed",
        "access_changed",
        "closed",
        "reopened",
        "slug_changed",
        "form_removed",
        "content_changed",
        "field_moved",
        "translation_added",
        "translation_changed",
        "translation_removed",
      ],
    },
    field: str,
    option: str,
    lang: { ...str, description: "The language of a translation change (SPEC §20)" },
    detail: str,
    answers_affected: int,
  },
  ["kind", "detail", "answers_affected"],
);

/** components.schemas.Plan */
export const planSchema = obj({
  slug: str,
  from_version: { type: ["integer", "null"] },
  changes: { type: "array", items: change },
  destructive: { type: "boolean" },
  summary: str,
});

const plan = { $ref: "#/components/schemas/Plan" };
const needsConfirmation = {
  409: {
    description:
      "`plan_needs_confirmation`: the change would leave stored answers unreachable; `details` is the plan. Confirm it (`?confirm=true`) or map the answers with `formerly`.",
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
  },
};

/** `?dry_run=true` and `?confirm=true` on PATCH and PUT /api/forms/{slug}. */
export const changeParameters = [
  q("dry_run", { type: "boolean", description: "Answer the plan; change nothing" }),
  q("confirm", { type: "boolean", description: "Apply even a destructive plan" }),
];
export const changeResponses = needsConfirmation;

export const versionPaths = {
  "/api/forms/{slug}/versions": {
    parameters: [slug],
    get: {
      operationId: "listFormVersions",
      summary: "A form's versions, newest first, each with the changes that made it",
      responses: {
        200: json(
          obj({
            slug: str,
            version: int,
            versions: {
              type: "array",
              items: obj(
                {
                  version: int,
                  commit_sha: { type: ["string", "null"] },
                  created_at: str,
                  retired_at: { type: ["string", "null"] },
                  changes: { type: "array", items: change },
                },
                ["version", "commit_sha", "created_at", "changes"],
              ),
            },
          }),
        ),
        ...err(...OWNER),
      },
    },
  },
  "/api/forms/{slug}/plan": {
    parameters: [slug],
    post: {
      operationId: "planFormChange",
      summary:
        "What deploying a change would do, with the stored answers each change touches; changes nothing",
      description:
        "Body: what a PATCH takes (merged into the live definition), a whole definition (it states `slug`), or `{content}` / `{markdown}`: a form file; with `translations` as deploy sends them, the plan lists each language added, changed or removed (SPEC §20). Works for a slug that does not exist yet (`form_created`).",
      requestBody: {
        required: true,
        content: { "application/json": { schema: { type: "object" } } },
      },
      responses: {
        200: json(plan),
        ...err(["400", "BadRequest"], ...OWNER),
      },
    },
  },
};
