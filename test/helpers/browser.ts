import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";
import { ensurePagesBuilt } from "../../functions/node/build-pages.ts";
import { ensureChromium } from "../../scripts/chromium.ts";
import { client } from "./api.ts";
import { startTestServer, type TestServer, type TestServerOptions } from "./server.ts";

let shared: Promise<Browser> | undefined;

/** What a suite needs of a browser: its own contexts, closed with it. */
export type SuiteBrowser = Pick<Browser, "newContext" | "newPage" | "close">;

/**
 * Debian's chromium (its headless shell), started once per test worker (the files a worker runs
 * share its loaded modules, vitest.config.ts) and closed with the worker. Each suite gets its own
 * contexts, so cookies, storage and pages never cross suites; `close()` closes those contexts.
 */
export async function launch(): Promise<SuiteBrowser> {
  shared ??= chromium.launch({
    executablePath: ensureChromium(),
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      // one renderer process for every page, and the GPU work in the browser process: each
      // process chromium starts is forked and set up again, and site isolation is about
      // hostile sites, which a suite does not open (same-origin rules still apply). Measured on
      // four page suites with the full chromium: 15 % less CPU and wall time.
      "--disable-site-isolation-trials",
      "--disable-features=site-per-process,IsolateOrigins",
      "--renderer-process-limit=1",
      "--in-process-gpu",
    ],
  });
  const browser = await shared;
  if (!browser.isConnected()) {
    shared = undefined;
    return launch();
  }
  const contexts: BrowserContext[] = [];
  const track = async (context: Promise<BrowserContext>) => {
    const c = await context;
    contexts.push(c);
    return c;
  };
  return {
    newContext: (options) => track(browser.newContext(options)),
    async newPage(options) {
      // as Browser.newPage: a page in a context of its own
      const context = await track(browser.newContext(options));
      return context.newPage();
    },
    async close() {
      await Promise.all(contexts.map((c) => c.close().catch(() => {})));
    },
  };
}

/** A real server with built pages, a browser context on it, and what a page suite needs. */
export interface PageSuite {
  server: TestServer;
  api: ReturnType<typeof client>;
  context: BrowserContext;
  /** Script errors and console errors of every page opened through `open`. */
  errors: string[];
  /**
   * A new page at `path`; `before` runs first (a route to set up), and `loaded` says when to go
   * on (default: the load event).
   */
  open(
    path: string,
    options?: { before?: (page: Page) => Promise<unknown>; loaded?: "domcontentloaded" },
  ): Promise<Page>;
  /** The newest stored response of a form, read through the API. */
  latest(slug: string): Promise<{ id: string; payload: Record<string, unknown> } | undefined>;
  close(): Promise<void>;
}

export async function startPageSuite(options: TestServerOptions = {}): Promise<PageSuite> {
  await ensurePagesBuilt();
  const server = await startTestServer(options);
  const api = client(server.url, server.apiKey);
  const browser = await launch();
  const context = await browser.newContext();
  const errors: string[] = [];
  return {
    server,
    api,
    context,
    errors,
    async open(path, options = {}) {
      const page = await context.newPage();
      page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
      page.on("pageerror", (e) => errors.push(e.message));
      await options.before?.(page);
      await page.goto(`${server.url}${path}`, { waitUntil: options.loaded ?? "load" });
      return page;
    },
    async latest(slug) {
      return (await api("GET", `/api/forms/${slug}/responses?limit=1`)).body.responses[0];
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/**
 * Holds back the page's script chunks whose URL matches (a slow line): `requested` settles when
 * the page asks for one, and `release` lets them through.
 */
export async function holdChunks(page: Page, url: string) {
  const held = Promise.withResolvers<void>();
  const asked = Promise.withResolvers<void>();
  await page.route(url, async (route) => {
    asked.resolve();
    await held.promise;
    await route.continue();
  });
  return { requested: asked.promise, release: () => held.resolve() };
}
