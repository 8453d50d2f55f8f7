// `npm install` / `npm ci` (postinstall): dumps an initdb'd PGlite cluster into
// node_modules/.cache so the first `npm start` unpacks it instead of running initdb (see
// functions/db/pglite-template.ts). Downloads nothing. Never fails the install: without the
// template the first start runs initdb as before.

import { existsSync } from "node:fs";
import { templatePath, writeTemplate } from "../functions/db/pglite-template.ts";

try {
  if (!existsSync(templatePath())) await writeTemplate();
} catch (error) {
  console.warn(
    `formdown: no PGlite template (${(error as Error).message}); the first start runs initdb`,
  );
}
