import { LOCALES } from "../core/locales/codes.ts";

/**
 * The HTTP header that says which sites may frame a form (SPEC §13: `settings.embed_origins`).
 * Only a header can carry `frame-ancestors`; a `<meta>` CSP ignores it.
 */
export const frameAncestors = (origins: readonly string[]): string =>
  `frame-ancestors ${origins.join(" ")}`;

/** The first language of an Accept-Language header that pages speak (for the not-found page). */
export function preferredLocale(header: string | null): string {
  for (const part of (header ?? "").split(",")) {
    const code = part.split(";")[0]!.trim().toLowerCase().split("-")[0]!;
    if ((LOCALES as readonly string[]).includes(code)) return code;
  }
  return "en";
}
