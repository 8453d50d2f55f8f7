// A form file as the build's content collection holds it: the YAML header is the entry's data
// and the Markdown below it its body, which the form's schema calls `body` (parseFormFile joins
// them the same way for the server's pages).
import type { Form } from "../core/schema.ts";

/** The form of a content entry, with the Markdown below its header as its body. */
export function formOfEntry(entry: { data: Form; body?: string | undefined }): Form {
  const body = entry.body?.trim();
  return body ? { ...entry.data, body } : entry.data;
}
