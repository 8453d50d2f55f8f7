// The bodies of creating and deploying a form, and their answers (functions/openapi-paths.ts).
import { obj, ref, str } from "./openapi-schema.ts";

export const created = obj(
  {
    slug: str,
    form_slug: str,
    status: str,
    public_url: str,
    short_url: str,
    form_id: str,
    preview_url: str,
  },
  ["slug", "form_slug", "status", "public_url", "short_url", "form_id"],
);
export const deployed = obj(
  {
    result: { enum: ["created", "updated", "unchanged", "renamed"] },
    slug: str,
    form_id: str,
    url: str,
    // a draft's page (`status: "draft"`, what `formdown dev` sends)
    preview_url: str,
  },
  ["result", "slug", "form_id", "url"],
);
/** A form's translations beside it (SPEC §20): POST, PUT and PATCH take them. */
export const translations = {
  type: "object",
  description:
    "The form's translations (SPEC §20): language → {content: the whole <slug>.<lang>.md} or that file's strings ({title, fields: {<id>: {label, options, …}}, …}, its Markdown body as body); checked against the form as formdown validate checks them, stored with it, written beside its file. Absent keeps the stored ones; a PATCH replaces only the languages it gives",
  additionalProperties: { type: "object" },
};
/** POST /api/forms: also `status: "draft"` (no public page until published, SPEC §16). */
export const createBody = {
  required: true,
  description:
    'The definition or {markdown}, plus optionally status "draft" (a preview_url, no public page, test answers only, until POST /api/forms/{slug}/publish)',
  content: {
    "application/json": {
      schema: {
        oneOf: [
          {
            allOf: [ref("FormDefinition")],
            properties: { status: { enum: ["draft", "live"] }, translations },
          },
          obj({ markdown: str, status: { enum: ["draft", "live"] }, translations }, ["markdown"]),
        ],
      },
    },
  },
};
/** PUT (deploy): `renamed_from` names the slug of the file this one was renamed from. */
export const deployBody = {
  required: true,
  description:
    'The definition or {markdown}; status "draft" creates or updates a draft only (what `formdown dev` sends): a live form under the slug is refused with 409 conflict, never changed',
  content: {
    "application/json": {
      schema: {
        oneOf: [
          ref("FormDefinition"),
          obj(
            {
              markdown: str,
              renamed_from: str,
              status: { enum: ["draft", "live"] },
              translations,
            },
            ["markdown"],
          ),
        ],
      },
    },
  },
};
