import { z } from "zod";
import { formSchema } from "../../src/core/schema.ts";
import { range as instants, parseQuery } from "../contracts/common.ts";

/**
 * Arguments several tools share, described once. `slug` names itself: a description on each of
 * about twenty tools cost 470 bytes of tools/list (SPEC §14's 20,000-byte budget).
 */
export const slug = z.string().min(1);

/** A field of the form, by its id; like slug, it names itself. */
export const fieldId = z.string().min(1);

/** Plan only, changing nothing; accept a plan that strands stored answers (SPEC §16). */
export const dryRun = z.boolean().optional();
export const confirm = z.boolean().optional();

/** One of the form's languages (SPEC §20); like slug, it names itself. */
export const lang = z.string().optional();

/**
 * A form's translations (SPEC §20): `{<lang>: {title, fields: {<id>: {label, …}}, …}}`, the
 * front matter of `<slug>.<lang>.md` (its body as `body`), or `{content}`: the whole file.
 */
export const translations = z
  .record(z.string(), z.unknown())
  .optional()
  .describe("{<lang>: <slug>.<lang>.md as JSON, e.g. {title, fields: {<id>: {label}}}}");

/** A webhook of the form (add_webhook answers it, list_webhooks lists them). */
export const webhookId = z.string();

/** ISO date/times, since <= submitted_at < until: said once, in list_responses' description. */
export const since = z.string().optional();
export const until = z.string().optional();

/**
 * Test answers (the owner's key, a preview page) are left out of every read unless asked for. Its
 * name says it (like dry_run): tools/list stays within 20,000 bytes.
 */
export const includeTest = z.boolean().optional();

/**
 * A filter (SPEC §18): `[{field, op, value}]`, all of which must hold. The surface passes it on
 * as it came; the service checks it against the form and names a bad condition
 * (invalid_request). Listed as `{type: array}` (json-schema.ts): the ops
 * are said once, in list_responses' description, and every refusal lists them again.
 */
export const conditions = z.array(z.unknown());
export const where = conditions.optional();

export const range = (a: { since?: string | undefined; until?: string | undefined }) =>
  parseQuery(instants, { since: a.since, until: a.until });

/** The same definition schema under a second identity, so validate_form gets a one-line brief. */
export const formSchemaAgain = formSchema.meta({});

/** A form given whole: the JSON definition (checked with the full schema) or a form file. */
const sourceOf = (definition: typeof formSchema) =>
  z
    .object({
      definition: definition.optional(),
      markdown: z.string().optional().describe("Or a whole form file"),
    })
    .refine(...oneSource);
/** The refinement every input with a source keeps (an extended one too). */
export const oneSource = [
  (v: { definition?: unknown; markdown?: unknown }) =>
    (v.definition === undefined) !== (v.markdown === undefined),
  "give either definition or markdown, not both",
] as const;

export const source = sourceOf(formSchema);
/** validate_form's: the same rules, its definition briefed in one line (see json-schema.ts). */
export const sourceToCheck = sourceOf(formSchemaAgain);

export const fromSource = (a: z.output<typeof source>) =>
  a.markdown !== undefined ? { markdown: a.markdown } : a.definition;
