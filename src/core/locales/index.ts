// Every locale's UI text, for the server side of a page (Astro components). The page's script
// never imports this: the page carries only its own locale's strings, in its JSON definition.
import { ar } from "./ar.ts";
import type { Locale } from "./codes.ts";
import { de } from "./de.ts";
import { en, type MessageKey, type Messages } from "./en.ts";
import { es } from "./es.ts";
import { fr } from "./fr.ts";
import { he } from "./he.ts";
import { INFORMAL } from "./informal.ts";
import { it } from "./it.ts";
import { ja } from "./ja.ts";
import { nl } from "./nl.ts";
import { pl } from "./pl.ts";
import { pt } from "./pt.ts";
import { zh } from "./zh.ts";

export const MESSAGES: Record<Locale, Messages> = {
  en,
  de,
  fr,
  es,
  it,
  pt,
  nl,
  pl,
  ja,
  zh,
  ar,
  he,
};

/**
 * The UI text of a locale (English for one the page does not know); `informal` swaps in the
 * informal register where the locale's default is formal (informal.ts).
 */
export function messages(locale: string, formality?: "formal" | "informal"): Messages {
  const base = (MESSAGES as Record<string, Messages>)[locale] ?? en;
  const informal = formality === "informal" ? INFORMAL[locale as Locale] : undefined;
  return informal ? { ...base, ...informal } : base;
}

/** `{name}` placeholders filled in; an unknown name stays as written. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (all, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : all,
  );
}

export type { MessageKey, Messages };
