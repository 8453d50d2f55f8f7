// `node --liftoff-only functions/db/pglite-init.ts <dir>`: creates a PGlite data directory and
// exits, so the memory it takes is not kept by the server (see pglite.ts). From the cached
// initdb template when there is one (see pglite-template.ts), else by running initdb.
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pgliteStartParams } from "./pglite.ts";
import { readTemplate } from "./pglite-template.ts";

const dir = process.argv[2];
if (!dir) {
  console.error("usage: pglite-init.ts <data dir>");
  process.exit(2);
}
const startParams = await pgliteStartParams();
const template = readTemplate();
let pg: PGlite | undefined;
if (template) {
  try {
    pg = await PGlite.create({ dataDir: dir, loadDataDir: template, startParams });
  } catch {
    // a damaged template: clear what it left and run initdb after all
    for (const entry of readdirSync(dir))
      rmSync(join(dir, entry), { recursive: true, force: true });
  }
}
pg ??= await PGlite.create({ dataDir: dir, startParams });
await pg.close();
