import { z } from "zod";
import { fieldSchema } from "../../../src/core/field-schema.ts";
import { formSchema } from "../../../src/core/schema.ts";
import { updateAccess } from "../../services/access.ts";
import { deployFormFile } from "../../services/deploy.ts";
import { ownedForm } from "../../services/form-view.ts";
import {
  createForm,
  definitionFrom,
  getForm,
  listForms,
  updateForm,
} from "../../services/forms.ts";
import { defineTool, READ, WRITE } from "../tool.ts";

const slug = z
  .string()
  .min(1)
  .describe("The form's slug (its URL segment), e.g. customer-feedback");
const source = z
  .object({
    definition: formSchema
      .optional()
      .describe("The form definition as JSON (title, slug, fields, …)"),
    markdown: z
      .string()
      .optional()
      .describe("A whole form file: YAML header between --- lines, then the Markdown body"),
  })
  .refine(
    (v) => (v.definition === undefined) !== (v.markdown === undefined),
    "give either definition or markdown",
  );

export const createFormTool = defineTool({
  name: "create_form",
  title: "Create a form",
  description:
    "Create a new form, survey or quiz from a JSON definition or a whole Markdown form file; it goes live at once and its file is committed to the repository. Fails with conflict if the slug exists (use update_form or deploy_form to change a form). Run validate_form first if unsure.",
  input: source,
  annotations: WRITE,
  run: (ctx, account, args) =>
    createForm(
      ctx,
      account,
      args.markdown !== undefined ? { markdown: args.markdown } : args.definition,
    ),
});

export const validateFormTool = defineTool({
  name: "validate_form",
  title: "Validate a form (dry run)",
  description:
    "Check a form definition or Markdown form file against every rule without creating or changing anything. Returns {valid, form} or a validation_failed error listing each problem with its path.",
  input: source,
  annotations: READ,
  run: async (_ctx, _account, args) => ({
    valid: true,
    form: definitionFrom(
      args.markdown !== undefined ? { markdown: args.markdown } : args.definition,
    ),
  }),
});

export const updateFormTool = defineTool({
  name: "update_form",
  title: "Update a form",
  description:
    "Change part of an existing form you own: only the keys in `patch` change (nested objects such as settings merge one level; arrays like fields are replaced whole). The slug cannot change. The change is committed to the form's file. To append one field use add_field.",
  input: z.object({
    slug,
    patch: z.record(z.string(), z.unknown()).describe("Top-level keys of the definition to change"),
  }),
  annotations: { ...WRITE, idempotentHint: true },
  run: (ctx, account, args) => updateForm(ctx, account, args.slug, args.patch),
});

export const addFieldTool = defineTool({
  name: "add_field",
  title: "Add a field",
  description:
    "Append one field to the end of a form you own. The field id must be new and snake_case; show_if may refer only to earlier fields.",
  input: z.object({ slug, field: fieldSchema.describe("The field to append") }),
  annotations: WRITE,
  run: async (ctx, account, args) => {
    const row = await ownedForm(ctx, account, args.slug);
    return updateForm(ctx, account, args.slug, { fields: [...row.definition.fields, args.field] });
  },
});

export const updateAccessTool = defineTool({
  name: "update_form_access",
  title: "Set who may respond",
  description:
    "Set the respondent access policy: public, link (the URL carries ?access=<token>), password, or closed. With rotate: true a link form gets a new token and the old link stops working — share the returned public_url again.",
  input: z.object({
    slug,
    mode: z.enum(["public", "link", "password", "closed"]).describe("Who may respond"),
    password: z.string().min(4).optional().describe("Required for password mode"),
    rotate: z.boolean().optional().describe("Issue a new link token (link mode)"),
  }),
  annotations: { ...WRITE, destructiveHint: true },
  run: (ctx, account, args) => updateAccess(ctx, account, args.slug, args),
});

export const deployFormTool = defineTool({
  name: "deploy_form",
  title: "Deploy a form file",
  description:
    "Make the form in a repository file live: `path` is forms/@<your handler>/<slug>.md. With `content`, the file is first written and committed to git (this is how an agent publishes a new or edited form file). Unchanged content changes nothing. Paths outside your own folder are refused. Returns {url, slug, form_id}.",
  input: z.object({
    path: z.string().describe("Repository path of the form file, e.g. forms/@acme/contact.md"),
    content: z
      .string()
      .optional()
      .describe("The whole form file to write and commit before deploying"),
  }),
  annotations: { ...WRITE, idempotentHint: true },
  run: (ctx, account, args) => deployFormFile(ctx, account, args.path, args.content),
});

export const getFormTool = defineTool({
  name: "get_form",
  title: "Get a form",
  description:
    "Fetch one of your forms: its definition (config), status, public and short URLs, and stats.",
  input: z.object({ slug }),
  annotations: READ,
  run: (ctx, account, args) => getForm(ctx, account, args.slug),
});

export const listFormsTool = defineTool({
  name: "list_forms",
  title: "List forms",
  description:
    "List all forms of your account with status, public URL and counts of views and responses. Takes no arguments.",
  input: z.object({}),
  annotations: READ,
  run: async (ctx, account) => ({ forms: await listForms(ctx, account) }),
});
