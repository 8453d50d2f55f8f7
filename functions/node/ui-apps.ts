import { readFile } from "node:fs/promises";
import type { UiApps } from "../context.ts";
import type { PagesHandler } from "./pages.ts";

const root = new URL("../../", import.meta.url).pathname;

/** What the app shows until the host hands it the tool's result. */
const WAITING = "Waiting for the tool's result…";
const APP_CSS = ".fd-app-note{font:13px system-ui,sans-serif;color:#666;margin:.5rem 1rem}";

/**
 * The MCP Apps' documents (SPEC §18): each one HTML file, its script (src/apps/, with the page
 * runtime it imports) bundled by esbuild and inlined with its styles, so it loads nothing. Built
 * on first read, then kept.
 */
async function buildDocument(name: "form" | "report"): Promise<string> {
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [`${root}src/apps/${name}-app.ts`],
    write: false,
    bundle: true,
    minify: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    legalComments: "none",
    // the 3D viewer loads from the network, which an app has not: pages with a model show none
    external: ["@google/model-viewer"],
    // the ALTCHA worker's address: never asked for, a test answer needs no anti-bot token
    define: { "import.meta.url": '"about:blank"' },
    logLevel: "warning",
  });
  const js = result.outputFiles[0]!.text.replace(/<\/(script)/gi, "<\\/$1");
  const css =
    name === "form" ? (await readFile(`${root}src/styles/form.css`, "utf8")) + APP_CSS : APP_CSS;
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Formdown</title><style>${css}</style></head><body><p class="fd-app-note">${WAITING}</p><script>${js}</script></body></html>`;
}

export function createUiApps(pages: PagesHandler | null): UiApps {
  const built = new Map<string, Promise<string>>();
  return {
    document(name) {
      let doc = built.get(name);
      if (!doc) {
        doc = buildDocument(name);
        doc.catch(() => built.delete(name));
        built.set(name, doc);
      }
      return doc;
    },
    page: async (model) => (pages ? pages.html(model) : null),
  };
}
