// SPEC §22 "Every form has a page, wherever it came from". A pure static host serves files and
// nothing else: a form it holds no built page for (made over REST or MCP, deployed from a
// forms-only repository, or newer than the last pages build) answers 404 there, and no static
// host can be told otherwise without a rebuild and a publish. The API origin's Node server
// renders every form on demand. So a form's links name the static host only when the pages
// published there hold its page, and the API origin otherwise. What the static host holds it
// says itself: every build writes /formdown-pages.json (src/pages/formdown-pages.json.ts), read
// here at most every TTL_MS (a deploy reads it at once), without a timer, so the Deno entry
// and the serverless drain keep none running.

/** How long a read of the pages' list is used before it is read again. */
const TTL_MS = 30_000;
/** A pages host that does not answer in this time is taken to hold nothing (this time). */
const TIMEOUT_MS = 5_000;

export const PAGES_LIST = "/formdown-pages.json";

/** What /formdown-pages.json says: the forms a build holds, or that its server renders all. */
export type PagesList = { pages: string[] } | { every_form: true };

export interface PageOrigins {
  /** The origin that serves the page of `@handler/slug` (SPEC §22): the pages' or the API's. */
  of(handler: string, slug: string): string;
  /** Reads the pages origin's list now (a deploy waits for it, so its links are current). */
  refresh(): Promise<void>;
}

interface Origins {
  baseUrl: string;
  publicBaseUrl: string;
}

type Log = { info(message: string, fields?: Record<string, unknown>): void };

/**
 * `config` is read at each call: a server started on port 0 learns its base URL after the
 * context is made (functions/node/server.ts).
 */
export function pageOrigins(
  config: Origins,
  log: Log,
  options: { fetch?: typeof fetch; ttlMs?: number } = {},
): PageOrigins {
  const get = options.fetch ?? fetch;
  const ttl = options.ttlMs ?? TTL_MS;
  let held: { every: boolean; pages: ReadonlySet<string> } | null = null;
  let readAt = 0;
  let reading: Promise<void> | null = null;
  /** The last read's failure, said once until a read succeeds again. */
  let failing: string | null = null;

  const split = () => config.publicBaseUrl !== config.baseUrl;

  async function read(): Promise<void> {
    const from = config.publicBaseUrl;
    try {
      const res = await get(`${from}${PAGES_LIST}`, {
        headers: { accept: "application/json", "cache-control": "no-cache" },
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      // a build from before the list existed holds pages we cannot name: none is assumed
      const list = res.ok ? parsePagesList(await res.json().catch(() => null)) : null;
      if (!res.ok) await res.body?.cancel();
      held = list ?? { every: false, pages: new Set() };
      if (!list) say(`${from}${PAGES_LIST} answered ${res.status}${res.ok ? " (not a list)" : ""}`);
      else failing = null;
    } catch (error) {
      // keep what was last read: a host that is briefly away still holds its pages
      held ??= { every: false, pages: new Set() };
      say(`${from}${PAGES_LIST} could not be read (${(error as Error).message})`);
    } finally {
      readAt = Date.now();
    }
  }

  function say(problem: string) {
    if (failing === problem) return;
    failing = problem;
    log.info(
      `Note: ${problem}; forms without a page there link to the API origin, which renders them.`,
    );
  }

  const refresh = () => {
    if (!split()) return Promise.resolve();
    reading ??= read().finally(() => {
      reading = null;
    });
    return reading;
  };

  return {
    of(handler, slug) {
      if (!split()) return config.baseUrl;
      if (Date.now() - readAt > ttl) void refresh();
      const hit = held && (held.every || held.pages.has(`@${handler}/${slug}`));
      return hit ? config.publicBaseUrl : config.baseUrl;
    },
    refresh,
  };
}

/** The list's two shapes; anything else is null. */
export function parsePagesList(body: unknown): { every: boolean; pages: Set<string> } | null {
  if (!body || typeof body !== "object") return null;
  if ((body as { every_form?: unknown }).every_form === true)
    return { every: true, pages: new Set() };
  const pages = (body as { pages?: unknown }).pages;
  if (!Array.isArray(pages)) return null;
  return { every: false, pages: new Set(pages.filter((p) => typeof p === "string")) };
}
