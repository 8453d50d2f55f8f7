// @ts-check
import node from "@astrojs/node";
import { defineConfig } from "astro/config";
import { normaliseBaseUrl } from "./src/core/base-url.ts";

// The API origin pages submit to, as operators write it (`forms.example.com`, a trailing slash):
// normalised here once for every page; a malformed one stops the build with one line (SPEC §17).
try {
  const api = normaliseBaseUrl("FORMDOWN_BASE_URL", process.env.FORMDOWN_BASE_URL);
  if (api) process.env.FORMDOWN_BASE_URL = api;
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
