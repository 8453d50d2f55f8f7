import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { wrapPglite } from "../functions/db/db.ts";
import { migrate } from "../functions/db/migrate.ts";

/**
 * Once per run: a migrated PGlite database dumped to a tarball. Each test database is loaded
 * from it (about 0.5 s) instead of running initdb and the migrations again (3–9 s, TECH.md §4).
 */
export default async function setup({
  provide,
}: {
  provide: (key: string, value: unknown) => void;
}) {
  process.env.ASTRO_TELEMETRY_DISABLED = "1";
  const pg = await PGlite.create();
  await migrate(wrapPglite(pg));
  const dump = await pg.dumpDataDir("none");
  const file = join(tmpdir(), `formdown-template-${process.pid}.tar`);
  await writeFile(file, new Uint8Array(await dump.arrayBuffer()));
  await pg.close();
  provide("pgliteTemplate", file);
}

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}
