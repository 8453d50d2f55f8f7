import type { MiddlewareHandler } from "hono";
import { failureResponse } from "./errors.ts";

/**
 * Refuses a path whose percent-escapes are not UTF-8 text (`%ED%A0%80`, a lone surrogate;
 * `%FF`; a truncated `%E2%82`; a stray `%`) or that carries a NUL, before any route sees it.
 * Hono hands such a parameter on undecoded, so each route would have to notice; one check here
 * means none can forget (SPEC §19).
 */
export const pathGuard: MiddlewareHandler = async (c, next) => {
  const refused = refuseMalformedPath(c.req.url);
  if (refused) return refused;
  await next();
};

/** The 400 for a URL whose path does not decode, or null; for entries that route before Hono. */
export function refuseMalformedPath(url: string): Response | null {
  // the raw path: Hono's `c.req.path` is already decoded where it could be (a NUL included)
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const query = url.indexOf("?", start);
  const path = start === -1 ? "" : url.slice(start, query === -1 ? undefined : query);
  if (!path.includes("%") || decodes(path)) return null;
  return failureResponse({
    code: "invalid_param",
    error: "The URL path is not valid UTF-8 (a percent-escape is malformed).",
  });
}

function decodes(path: string): boolean {
  try {
    return !decodeURIComponent(path).includes("\0");
  } catch {
    return false;
  }
}
