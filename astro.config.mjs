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

// Static pages for every form file (any static host), plus one on-demand route that the
// embedded server uses to render forms created or changed through the API at once.
export default defineConfig({
  output: "static",
  adapter: node({ mode: "middleware" }),
  trailingSlash: "ignore",
  build: { inlineStylesheets: "never", format: "directory" },
  // every script is an external file, so the page's CSP needs no 'unsafe-inline'
  vite: { build: { assetsInlineLimit: 0 } },
  devToolbar: { enabled: false },
});
