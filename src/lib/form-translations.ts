// The translation files of a form in the repository being built (SPEC §20): the static pages
// read them beside the form, forms/@<handler>/<slug>.<lang>.md (the build's content loader has
// already refused a broken one, src/content.config.ts).
import { readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { normaliseBaseUrl } from "../core/base-url.ts";
import type { Form } from "../core/schema.ts";
import type { Translations } from "../core/translation.ts";
import { parseTranslationFile } from "../core/translation-file.ts";

/** Where the build reads form files (FORMDOWN_FORMS_DIR lets a build read them from elsewhere). */
export const formsDir = () => resolve(process.env.FORMDOWN_FORMS_DIR ?? "./forms");

/**
 * The public origin of the pages, for `hreflang` links ("" when not configured), written as the
 * operator may write it (`forms.example.com` is https, SPEC §17): the server renders pages too.
 */
export const publicOrigin = () =>
  normaliseBaseUrl("FORMDOWN_PUBLIC_BASE_URL", process.env.FORMDOWN_PUBLIC_BASE_URL) ?? "";

/** Each listed language's strings, from its file beside the form. */
export async function formTranslations(handler: string, form: Form): Promise<Translations> {
  const out: Translations = {};
  for (const lang of form.languages ?? []) {
    const file = join(formsDir(), `@${handler}`, `${form.slug}.${lang}.md`);
    const text = await readFile(file, "utf8").catch(() => null);
    const parsed = text === null ? null : parseTranslationFile(text, file);
    if (parsed?.ok) out[lang] = parsed.translation;
  }
  return out;
}
