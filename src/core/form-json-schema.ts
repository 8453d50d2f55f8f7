import { z } from "zod";
import { formSchema } from "./schema.ts";

/** Where agents find the complete form schema (MCP resource); also GET /api/form.schema.json. */
export const FORM_SCHEMA_URI = "formdown://schema/form";

/** The complete form definition as JSON Schema 2020-12, generated from the one zod schema. */
export function formJsonSchema(): Record<string, unknown> {
  const json = z.toJSONSchema(formSchema, { io: "input", unrepresentable: "any" }) as Record<
    string,
    unknown
  >;
  return { ...json, $id: FORM_SCHEMA_URI, title: "Formdown form definition" };
}
