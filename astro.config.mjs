// @ts-check
import node from "@astrojs/node";
import { defineConfig } from "astro/config";

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
