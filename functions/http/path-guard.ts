import type { MiddlewareHandler } from "hono";
import { failureResponse } from "./errors.ts";

/**
 * Refuses a path whose percent-escapes are not UTF-8 text (`%ED%A0%80`, a lone surrogate;
 * `%FF`; a truncated `%E2%82`; a stray `%`) or that carries a NUL, before any route sees it.
 * Hono hands such a parameter on undecoded, so each route would have to notice; one check here
 * means none can forget (SPEC §19).
 */
export const pathGuard: MiddlewareHandler = async (c, next) => {
  // the raw path: Hono's `c.req.path` is already decoded where it could be (a NUL included)
  const url = c.req.url;
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const query = url.indexOf("?", start);
  const path = start === -1 ? "" : url.slice(start, query === -1 ? undefined : query);
  if (path.includes("%") && !decodes(path))
    return failureResponse({
      code: "invalid_param",
      error: "The URL path is not valid UTF-8 (a percent-escape is malformed).",
    });
  await next();
};

function decodes(path: string): boolean {
  try {
    return !decodeURIComponent(path).includes("\0");
  } catch {
    return false;
  }
}
