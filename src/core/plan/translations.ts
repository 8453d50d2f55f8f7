// Translation changes in a plan (SPEC §20): a language added, its strings changed, or dropped
// from `languages`. Translations touch no stored answer (answers are kept in the form's own
// terms whatever language was read), so these changes count 0 answers and never need confirming.
import type { Form } from "../schema.ts";
import { formStrings, type Translations } from "../translation.ts";
import type { DraftChange } from "./plan.ts";

/** Every string of a translation by its dotted key: `fields.role.options.Design` → its text. */
export function translationStrings(value: unknown, at = ""): Map<string, string> {
  const out = new Map<string, string>();
  if (typeof value === "string") out.set(at, value);
  else if (value && typeof value === "object")
    for (const [key, inner] of Object.entries(value))
      for (const [k, v] of translationStrings(inner, at ? `${at}.${key}` : key)) out.set(k, v);
  return out;
}

/**
 * The keys whose string differs between two translations (added, changed or removed), in the
 * order the form has its strings (stored translations come back with their keys reordered).
 */
export function changedKeys(form: Form, before: unknown, after: unknown): string[] {
  const a = translationStrings(before);
  const b = translationStrings(after);
  const order = new Map(formStrings(form).map((s, i) => [s.path.join("."), i]));
  const at = (k: string) => order.get(k) ?? order.size;
  return [...new Set([...a.keys(), ...b.keys()])]
    .filter((k) => a.get(k) !== b.get(k))
    .sort((x, y) => at(x) - at(y) || (x < y ? -1 : x > y ? 1 : 0));
}

const SHOWN = 3;
const strings = (n: number) => `${n} string${n === 1 ? "" : "s"}`;
const brief = (keys: string[]) =>
  keys.length <= SHOWN
    ? keys.join(", ")
    : `${keys.slice(0, SHOWN).join(", ")}, ${keys.length - SHOWN} more`;

/** The languages a form's pages speak besides its own: those listed that have their strings. */
const spoken = (form: Form, translations: Translations | null | undefined): string[] =>
  (form.languages ?? []).filter((l) => translations?.[l] !== undefined);

/**
 * The translation changes from the live form and its stored translations to the new form with
 * the translations a request carries (undefined: it carries none, and the stored ones are kept).
 */
export function diffTranslations(
  old: { definition: Form; translations: Translations | null | undefined } | null,
  next: Form,
  given: Translations | undefined,
): DraftChange[] {
  const stored = old?.translations ?? {};
  const before = old ? spoken(old.definition, stored) : [];
  const now = given ?? stored;
  const after = spoken(next, now);
  const changes: DraftChange[] = [];
  for (const lang of after) {
    if (!before.includes(lang)) {
      const n = translationStrings(now[lang]).size;
      changes.push({
        kind: "translation_added",
        lang,
        detail: `translation ${lang} (${strings(n)})`,
      });
      continue;
    }
    const keys = changedKeys(next, stored[lang], now[lang]);
    if (keys.length > 0)
      changes.push({
        kind: "translation_changed",
        lang,
        detail: `translation ${lang}: ${strings(keys.length)} changed (${brief(keys)})`,
      });
  }
  for (const lang of before.filter((l) => !after.includes(l)))
    changes.push({ kind: "translation_removed", lang, detail: `translation ${lang}` });
  return changes;
}
