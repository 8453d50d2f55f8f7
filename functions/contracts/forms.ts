// Forms (SPEC §4, §16, §18, §20): their definitions, versions and plans, fields, access.
import { z } from "zod";
import { accessModes, accessPassword, flag } from "./common.ts";

const str = z.string();
const int = z.int();
const formRef = { $ref: "#/components/schemas/FormDefinition" };

const stats = z.object({ views: int, responses: int, submissions: int });
export const formSummary = z.object({
  slug: str,
  title: str,
  type: str,
  status: z.enum(["live", "closed", "draft"]),
  created_at: str,
  public_url: str,
  stats,
});
export const formDetail = z.object({
  form_id: str,
  slug: str,
  title: str,
  type: str.optional(),
  status: str,
  public_url: str,
  short_url: str,
  access: z.looseObject({}).optional(),
  file_path: str.nullable().optional(),
  commit_sha: str.nullable().optional(),
  preview_url: str.describe("A draft's unguessable preview page (SPEC §16)").optional(),
  version: int.describe("The live version (SPEC §16)").optional(),
  lang: str.describe("The language config is in (a form with languages, SPEC §20)").optional(),
  languages: z.array(str).describe("The form's languages, its own first").optional(),
  choices: z
    .looseObject({})
    .describe("Field id → {option as in the form → its label in lang}")
    .optional(),
  created_at: str,
  updated_at: str,
  config: z.looseObject({}),
  stats,
});

/** A form's translations beside it (SPEC §20): POST, PUT and PATCH take them. */
const translations = z
  .record(str, z.looseObject({}))
  .describe(
    "The form's translations (SPEC §20): language → {content: the whole <slug>.<lang>.md} or that file's strings ({title, fields: {<id>: {label, options, …}}, …}, its Markdown body as body); checked against the form as formdown validate checks them, stored with it, written beside its file. Absent keeps the stored ones; a PATCH replaces only the languages it gives",
  )
  .optional();
const status = z.enum(["draft", "live"]).optional();
const markdown = (more: z.ZodRawShape = {}) =>
  z.object({ markdown: str, status, translations, ...more });
const withDefinition = (extra: object) => ({ allOf: [formRef], ...extra });
export const createBody = {
  required: true,
  description:
    'The definition or {markdown}, plus optionally status "draft" (a preview_url, no public page, test answers only, until POST /api/forms/{slug}/publish)',
  content: {
    "application/json": {
      schema: {
        oneOf: [
          withDefinition({ properties: { status: { enum: ["draft", "live"] } } }),
          z.toJSONSchema(markdown(), { io: "input" }),
        ],
      },
    },
  },
};
export const deployBody = {
  required: true,
  description:
    'The definition or {markdown}; status "draft" creates or updates a draft only (what `formdown dev` sends): a live form under the slug is refused with 409 conflict, never changed',
  content: {
    "application/json": {
      schema: {
        oneOf: [
          formRef,
          z.toJSONSchema(markdown({ renamed_from: str.optional() }), { io: "input" }),
        ],
      },
    },
  },
};
export const patchBody = {
  required: true,
  content: {
    "application/json": {
      schema: z.toJSONSchema(z.looseObject({ translations }), { io: "input" }),
    },
  },
};
export const formCreated = z.object({
  slug: str,
  form_slug: str,
  status: str,
  public_url: str,
  short_url: str,
  form_id: str,
  preview_url: str.optional(),
});
export const formDeployed = z.object({
  result: z.enum(["created", "updated", "unchanged", "renamed"]),
  slug: str,
  form_id: str,
  url: str,
  preview_url: str.optional(),
});

/** `?dry_run=true` answers the plan and changes nothing; `?confirm=true` accepts a destructive one. */
export const change = {
  dry_run: flag("Answer the plan; change nothing"),
  confirm: flag("Apply even a destructive plan"),
};
/** `change`'s flags (or a tool's `dry_run`/`confirm`) as the services name them. */
export const changeOptions = (q: {
  dry_run?: boolean | undefined;
  confirm?: boolean | undefined;
}) => ({
  dryRun: q.dry_run,
  confirm: q.confirm,
});
export const lang = {
  lang: str.optional().describe("One of the form's languages (default: its own)"),
};

export const accessBody = z.object({
  mode: accessModes,
  password: accessPassword.optional().describe("password mode: 4 to 200 characters"),
  rotate: z.boolean().optional().describe("link mode: a new token (the old link stops)"),
});
export const accessAnswer = z.object({
  slug: str,
  mode: str,
  public_url: str,
  access_token: str.optional(),
});

export const published = z.object({
  slug: str,
  status: z.enum(["live", "closed"]),
  published: z.boolean(),
  public_url: str,
});
/** A draft's new preview link (SPEC §23: a preview is a draft's only, and can be rotated). */
export const rotated = z.object({ slug: str, preview_url: str });
export const closed = z.object({ result: z.enum(["closed"]), slug: str, form_id: str, url: str });
export const renameBody = z.object({ slug: str });
export const renamed = z.object({ slug: str, renamed_from: str });

const changeKind = z.enum([
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
  "retention_changed",
]);
const changeRecord = z.object({
  kind: changeKind,
  field: str.optional(),
  option: str.optional(),
  lang: str.describe("The language of a translation change (SPEC §20)").optional(),
  detail: str,
  answers_affected: int,
});
/** components.schemas.Plan: what a change would do (SPEC §16). */
export const plan = z.object({
  slug: str,
  from_version: int.nullable(),
  changes: z.array(changeRecord),
  destructive: z.boolean(),
  summary: str,
});
export const versions = z.object({
  slug: str,
  version: int,
  versions: z.array(
    z.object({
      version: int,
      commit_sha: str.nullable(),
      created_at: str,
      retired_at: str.nullable().optional(),
      changes: z.array(changeRecord),
    }),
  ),
});

/** One field's change (SPEC §18): short, never the whole definition. */
export const fieldChange = z.object({
  slug: str,
  version: int.describe("The form's version after the change (dry run: the live one)"),
  field: z.looseObject({}).describe("The field as changed (as removed)"),
  plan: z.looseObject({}),
});
export const moveBody = z.object({
  before: str.optional().describe("The id of the field it goes before"),
  after: str.optional().describe("The id of the field it goes after"),
});

/** One logic test case (SPEC §24), as `<slug>.test.yaml` lists them. */
const testCase = z.looseObject({
  name: str,
  answers: z.looseObject({}).optional(),
  hidden: z.looseObject({}).optional(),
  expect: z
    .looseObject({})
    .describe("{ending?, shown?: [ids], hidden_fields?: [ids], variables?: {id: value}, valid?}"),
});
export const testBody = z.object({
  cases: z.array(testCase).max(1000).optional().describe("Default: the definition's own tests"),
  definition: z
    .looseObject({})
    .optional()
    .describe("A proposed definition (default: the live one)"),
  markdown: str.optional().describe("Or a proposed form file"),
});
/** What a test run answers: each case, passed or its failures. */
export const testRun = z.object({
  results: z.array(
    z.object({
      name: str,
      passed: z.boolean(),
      failures: z.array(z.object({ path: str, expected: z.unknown(), got: z.unknown() })),
    }),
  ),
  passed: int,
  failed: int,
});
