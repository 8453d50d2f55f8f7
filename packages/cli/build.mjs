// Builds the `formdown` command line as one JavaScript file for Node >= 20 (see
// functions/node/cli-bundle.ts, which the server also uses for `GET /cli/formdown.mjs`). Run by
// `npm pack` (prepack, with the project's Node 24) and by the tests; the output, dist/, is not committed.
import { chmod, mkdir, writeFile } from "node:fs/promises";
import { bundleCli } from "../../functions/node/cli-bundle.ts";

const here = new URL(".", import.meta.url).pathname;
await mkdir(`${here}dist`, { recursive: true });
await writeFile(`${here}dist/formdown.mjs`, await bundleCli(`${here}dist/formdown.mjs`));
await chmod(`${here}dist/formdown.mjs`, 0o755);
