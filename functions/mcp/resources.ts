import { AppError } from "../../src/core/errors.ts";
import { FORM_SCHEMA_URI, formJsonSchema } from "../../src/core/form-json-schema.ts";
import type { AppContext } from "../context.ts";
import type { Account } from "../services/accounts.ts";
import { readFormFile } from "../services/form-files.ts";
import { listForms } from "../services/forms.ts";
import { readUiResource, uiResources } from "./apps/ui-resources.ts";

const FORM_URI = /^formdown:\/\/forms\/([a-z0-9-]+)$/;
const formUri = (slug: string) => `formdown://forms/${slug}`;

/**
 * The schema, every form file of the account as formdown://forms/<slug> (SPEC §14), and the
 * MCP Apps' documents (SPEC §18).
 */
export async function listResources(ctx: AppContext, account: Account) {
  const forms = await listForms(ctx, account, (s) => s);
  return [
    {
      uri: FORM_SCHEMA_URI,
      name: "form-schema",
      title: "Formdown form definition (JSON Schema)",
      description: "The complete schema that create_form, validate_form and deploy_form check.",
      mimeType: "application/schema+json",
    },
    ...forms.map((f) => ({
      uri: formUri(f.slug),
      name: f.slug,
      title: f.title,
      description: `The form file of ${f.slug}, as committed`,
      mimeType: "text/markdown",
    })),
    ...uiResources(ctx),
  ];
}

/** The form files as one template (resources/templates/list), read through readResource. */
export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: "formdown://forms/{slug}",
    name: "form-file",
    title: "A form file",
    description: "The form file of one of your forms (slug from list_forms), as committed",
    mimeType: "text/markdown",
  },
];

/** A resource's text, or null when the URI names nothing the account can read. */
export async function readResource(ctx: AppContext, account: Account, uri: string) {
  if (uri === FORM_SCHEMA_URI)
    return {
      uri,
      mimeType: "application/schema+json",
      text: JSON.stringify(formJsonSchema()),
    };
  if (uri.startsWith("ui://")) return readUiResource(ctx, uri);
  const m = FORM_URI.exec(uri);
  if (!m) return null;
  try {
    const file = await readFormFile(ctx, account, m[1]!);
    return { uri, mimeType: "text/markdown", text: file.content };
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}
