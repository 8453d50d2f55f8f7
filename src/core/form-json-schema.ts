import { z } from "zod";
import { shareFieldProperties } from "./field-schema-defs.ts";
import { formSchema } from "./schema.ts";

/** Where agents find the complete form schema (MCP resource); also GET /api/form.schema.json. */
export const FORM_SCHEMA_URI = "formdown://schema/form";

type Json = Record<string, unknown>;

/**
 * The complete form definition as JSON Schema 2020-12, generated from the one zod schema; the
 * field types' common properties are stated once, in `$defs` (see field-schema-defs.ts).
 */
export function formJsonSchema(): Json {
  const json = z.toJSONSchema(formSchema, { io: "input", unrepresentable: "any" }) as Json;
  const items = ((json.properties as Json | undefined)?.fields as Json | undefined)?.items as
    | { oneOf?: Json[] }
    | undefined;
  if (items?.oneOf) {
    const { variants, defs } = shareFieldProperties(items.oneOf);
    items.oneOf = variants;
    json.$defs = { ...(json.$defs as Json | undefined), ...defs };
  }
  return { ...json, $id: FORM_SCHEMA_URI, title: "Formdown form definition" };
}
