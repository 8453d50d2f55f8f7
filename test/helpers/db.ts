import { readFile } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { inject } from "vitest";
import { type Db, openPostgres, wrapPglite } from "../../functions/db/db.ts";
import { migrate } from "../../functions/db/migrate.ts";
import { pgliteStartParams } from "../../functions/db/pglite.ts";

export type DbKind = "pglite" | "postgres";

/** The database kinds a suite runs on: PGlite always, Postgres when TEST_DATABASE_URL is set. */
export const DB_KINDS: DbKind[] = process.env.TEST_DATABASE_URL
  ? ["pglite", "postgres"]
  : ["pglite"];

if (!process.env.TEST_DATABASE_URL && !process.env.FORMDOWN_SAID_NO_PG) {
  process.env.FORMDOWN_SAID_NO_PG = "1";
  console.log("TEST_DATABASE_URL is not set: the Postgres runs of the data suites are skipped.");
}

const PGLITE_DIST = new URL("../../node_modules/@electric-sql/pglite/dist/", import.meta.url);

/**
 * Read and compiled once per worker (its files share modules, vitest.config.ts): a second database
 * then starts a quarter sooner.
 */
let pgliteParts: ReturnType<typeof loadPgliteParts> | undefined;

async function loadPgliteParts() {
  const [tar, wasm, bundle, params] = await Promise.all([
    readFile(inject("pgliteTemplate")),
    readFile(new URL("pglite.wasm", PGLITE_DIST)).then((bytes) => WebAssembly.compile(bytes)),
    readFile(new URL("pglite.data", PGLITE_DIST)),
    pgliteStartParams(),
  ]);
  return { tar: arrayBufferOf(tar), wasm, bundle: arrayBufferOf(bundle), params };
}

const arrayBufferOf = (b: Buffer): ArrayBuffer =>
  new Uint8Array(b.buffer, b.byteOffset, b.byteLength).slice().buffer;

/**
 * What PGlite reads of a Blob (its `arrayBuffer()` and `type`), answered with bytes already in
 * memory. A Node Blob hands its bytes over in chunks that are then joined: for the 31 MB
 * template and the 4 MB bundle that was a fifth of each database's start. The template is only
 * read (its files are copied into PGlite's file system), so every database reads the one buffer;
 * the bundle's files are kept as slices of what is handed over, so each database gets a copy.
 */
const bytes = (buffer: ArrayBuffer, copy: boolean) =>
  ({ type: "", arrayBuffer: async () => (copy ? buffer.slice(0) : buffer) }) as unknown as Blob;

/** A fresh, migrated database of the given kind; `drop` removes it. `pglite`: PGlite's own. */
export async function freshDb(
  kind: DbKind,
): Promise<{ db: Db; drop: () => Promise<void>; pglite?: PGlite }> {
  if (kind === "pglite") {
    pgliteParts ??= loadPgliteParts();
    const { tar, wasm, bundle, params } = await pgliteParts;
    // the embedded server's own settings (8 MB of shared buffers, not Postgres' 128): zeroing
    // the larger pool was a third of each start, and a process holding it forks (git) slower
    const pg = await PGlite.create({
      loadDataDir: bytes(tar, false),
      pgliteWasmModule: wasm,
      fsBundle: bytes(bundle, true),
      startParams: params,
    });
    const db = wrapPglite(pg);
    return { db, drop: () => db.close(), pglite: pg };
  }
  const url = new URL(process.env.TEST_DATABASE_URL!);
  const name = `formdown_test_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const admin = postgres(url.toString(), { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  const dbUrl = new URL(url);
  dbUrl.pathname = `/${name}`;
  const db = openPostgres(dbUrl.toString());
  await migrate(db);
  return {
    db,
    async drop() {
      await db.close();
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
