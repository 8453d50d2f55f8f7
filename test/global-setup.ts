import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { wrapPglite } from "../functions/db/db.ts";
import { MIGRATIONS_DIR, migrate } from "../functions/db/migrate.ts";
import { ensurePagesBuilt } from "../functions/node/build-pages.ts";

const ROOT = resolve(import.meta.dirname, "..");
const INITDB = ["--wal-segsize=1"];
/**
 * The template databases go: PGlite serves `postgres` alone, and tests never create a database
 * in it. Without their catalogs the dump is 15 MB instead of 31, and a database starts from it
 * about 80 ms sooner.
 */
const SLIM = [
  "update pg_database set datistemplate = false where datname in ('template0', 'template1')",
  "drop database template0",
  "drop database template1",
];

/**
 * A migrated PGlite database dumped to a tarball. Each test database is loaded from it (about
 * 0.35 s) instead of running initdb and the migrations again (3–9 s, TECH.md §4). It is kept in
 * node_modules/.cache under a name made of the PGlite version and the migrations' text, so a run
 * (and each test project of a run) builds it only when a migration changed.
 */
export default async function setup({
  provide,
}: {
  provide: (key: string, value: unknown) => void;
}) {
  process.env.ASTRO_TELEMETRY_DISABLED = "1";
  // the pages build, once, before any suite starts a server: in a fresh checkout a server would
  // otherwise meet dist/ half written by the first suite that builds it (the build is a child
  // process, so it overlaps the template below)
  const pages = ensurePagesBuilt();
  const hash = createHash("sha256");
  const pglite = JSON.parse(
    readFileSync(join(ROOT, "node_modules/@electric-sql/pglite/package.json"), "utf8"),
  ) as { version: string };
  hash.update(pglite.version).update(INITDB.join(" ")).update(SLIM.join(";"));
  for (const name of readdirSync(MIGRATIONS_DIR).sort())
    hash.update(name).update(readFileSync(join(MIGRATIONS_DIR, name)));
  const dir = join(ROOT, "node_modules", ".cache", "formdown");
  const file = join(dir, `test-template-${hash.digest("hex").slice(0, 16)}.tar`);
  if (!existsSync(file)) {
    // 1 MB WAL segments instead of 16: the dump is 31 MB instead of 41, and each test database
    // loads from it in about 0.8 s instead of 1.2 s (the cluster is the tests' alone)
    const pg = await PGlite.create({ initDbStartParams: INITDB });
    await migrate(wrapPglite(pg));
    for (const statement of SLIM) await pg.exec(statement);
    await pg.query("checkpoint");
    const dump = await pg.dumpDataDir("none");
    await pg.close();
    mkdirSync(dir, { recursive: true });
    // written under another name, then renamed: a parallel run never reads half a file
    const part = `${file}.${process.pid}.part`;
    writeFileSync(part, new Uint8Array(await dump.arrayBuffer()));
    renameSync(part, file);
  }
  await pages;
  provide("pgliteTemplate", file);
}

declare module "vitest" {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}
