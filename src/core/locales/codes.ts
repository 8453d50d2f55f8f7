/** The page languages a form's `locale` may name (SPEC §13). */
export const LOCALES = [
  "en",
  "de",
  "fr",
  "es",
  "it",
  "pt",
  "nl",
  "pl",
  "ja",
  "zh",
  "ar",
  "he",
] as const;
export type Locale = (typeof LOCALES)[number];

/** Languages written right to left: their pages are `dir="rtl"`. */
export const RTL_LOCALES: readonly Locale[] = ["ar", "he"];

export const isRtl = (locale: string): boolean =>
  (RTL_LOCALES as readonly string[]).includes(locale);
