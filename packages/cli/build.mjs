// Builds the `formdown` command line as one JavaScript file for Node >= 20: the TypeScript of
// cli/ and the core it uses (zod, gray-matter, cac) bundled, so installing the CLI pulls in no
// dependencies and none of the server's (astro, PGlite, the node@24 binary). Run by `npm pack`
// (prepack) and by the tests; the output, dist/, is not committed.
import { build } from "esbuild";

const here = new URL(".", import.meta.url).pathname;

await build({
  entryPoints: [`${here}../../cli/formdown.ts`],
  outfile: `${here}dist/formdown.mjs`,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  legalComments: "none",
  // gray-matter and js-yaml are CommonJS and call require("fs"): give the bundle a real require
  banner: {
    js: 'import { createRequire as __formdownRequire } from "node:module";\nconst require = __formdownRequire(import.meta.url);',
  },
  logLevel: "warning",
});
