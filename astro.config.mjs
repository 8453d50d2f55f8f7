// @ts-check
import node from "@astrojs/node";
import { defineConfig } from "astro/config";
import { normaliseBaseUrl } from "./src/core/base-url.ts";

// The API origin pages submit to and the pages' own origin (absolute `hreflang` links), as
// operators write them (`forms.example.com`, a trailing slash): normalised here once for every
// page; a malformed one stops the build with one line (SPEC §17).
try {
  for (const name of ["FORMDOWN_BASE_URL", "FORMDOWN_PUBLIC_BASE_URL"]) {
    const origin = normaliseBaseUrl(name, process.env[name]);
    if (origin) process.env[name] = origin;
  }
} catch (error) {
  console.error(`The build stopped: ${/** @type {Error} */ (error).message}`);
  process.exit(1);
}

/**
 * Vite wraps each dynamic import in a helper that first preloads the chunk's own imports and CSS
 * (about 0.9 KB gzip in the page's entry). The page's chunks have no CSS, and what they import is
 * the entry (already loaded) or small: the helper here only calls the import, and the lists of
 * files it would have preloaded are dropped once the chunks are rendered.
 */
const PRELOAD_HELPER = "\0vite/preload-helper.js";
const plainDynamicImports = {
  name: "formdown:plain-dynamic-imports",
  enforce: /** @type {const} */ ("pre"),
  /** @param {string} id */
  resolveId: (id) => (id === PRELOAD_HELPER ? id : undefined),
  /** @param {string} id */
  load: (id) => (id === PRELOAD_HELPER ? "export const __vitePreload = (f) => f();" : undefined),
  generateBundle: {
    order: /** @type {const} */ ("post"),
    /** @param {unknown} _ @param {Record<string, {type: string, code?: string}>} bundle */
    handler(_, bundle) {
      for (const chunk of Object.values(bundle))
        if (chunk.type === "chunk" && chunk.code?.includes("__vite__mapDeps"))
          chunk.code = chunk.code
            .replace(/^const __vite__mapDeps=.*$/m, "") // (its line kept: source maps still fit)
            .replace(/__vite__mapDeps\(\[[\d,]*\]\)/g, "[]");
    },
  },
};

// Static pages for every form file (any static host), plus one on-demand route that the
// embedded server uses to render forms created or changed through the API at once.
export default defineConfig({
  output: "static",
  adapter: node({ mode: "middleware" }),
  trailingSlash: "ignore",
  build: { inlineStylesheets: "never", format: "directory" },
  // every script is an external file, so the page's CSP needs no 'unsafe-inline'
  vite: { build: { assetsInlineLimit: 0 }, plugins: [plainDynamicImports] },
  devToolbar: { enabled: false },
});
