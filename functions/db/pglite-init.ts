// `node --liftoff-only functions/db/pglite-init.ts <dir>`: creates a PGlite data directory (runs
// initdb) and exits, so the memory initdb takes is not kept by the server (see pglite.ts).
import { PGlite } from "@electric-sql/pglite";
import { pgliteStartParams } from "./pglite.ts";

const dir = process.argv[2];
if (!dir) {
  console.error("usage: pglite-init.ts <data dir>");
  process.exit(2);
}
const pg = await PGlite.create({ dataDir: dir, startParams: await pgliteStartParams() });
await pg.close();
