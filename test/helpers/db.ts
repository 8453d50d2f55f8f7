import { readFile } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import { inject } from "vitest";
import { type Db, openPostgres, wrapPglite } from "../../functions/db/db.ts";
import { migrate } from "../../functions/db/migrate.ts";

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

/** Read and compiled once per test file: a second database of a file then starts a quarter sooner. */
let pgliteParts: Promise<{ tar: Blob; wasm: WebAssembly.Module; bundle: Blob }> | undefined;

async function loadPgliteParts() {
  const [tar, wasm, bundle] = await Promise.all([
    readFile(inject("pgliteTemplate")),
    readFile(new URL("pglite.wasm", PGLITE_DIST)).then((bytes) => WebAssembly.compile(bytes)),
    readFile(new URL("pglite.data", PGLITE_DIST)),
  ]);
  return { tar: new Blob([tar]), wasm, bundle: new Blob([bundle]) };
}

/** A fresh, migrated database of the given kind; `drop` removes it. */
export async function freshDb(kind: DbKind): Promise<{ db: Db; drop: () => Promise<void> }> {
  if (kind === "pglite") {
    pgliteParts ??= loadPgliteParts();
    const { tar, wasm, bundle } = await pgliteParts;
    const pg = await PGlite.create({
      loadDataDir: tar,
      pgliteWasmModule: wasm,
      fsBundle: bundle,
    });
    const db = wrapPglite(pg);
    return { db, drop: () => db.close() };
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
