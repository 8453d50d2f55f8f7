// A translation file's text from its strings (SPEC §20): what create_form and update_form write
// when an agent sends `translations: {<lang>: {title, fields, …}}` rather than the file itself.
import { Document } from "yaml";

/** `---\n<the strings as YAML>---\n\n<body>`: the file `parseTranslationFile` reads back. */
export function translationText(strings: Record<string, unknown>): string {
  const { body, ...header } = strings;
  // a body that is no text stays a key, so the file's check names it
  const text = typeof body === "string" ? body.trim() : "";
  const keys = typeof body === "string" || body === undefined ? header : strings;
  // YAML 1.1 like form files: gray-matter's js-yaml reads them
  const yaml = new Document(keys, { version: "1.1" }).toString({ lineWidth: 0 });
  return `---\n${yaml}---\n${text ? `\n${text}\n` : ""}`;
}
