import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { gunzipSync } from "node:zlib";

const ROOT = resolve(import.meta.dirname, "../..");

/**
 * A freshly initialised PGlite cluster (initdb only, no migrations), dumped once and kept beside
 * the installed packages. A new data directory unpacked from it skips initdb, the step that made
 * the first `npm start` the most memory-hungry moment of the embedded server (about 500 MB in
 * the init child alone; unpacking peaks near 270 MB, and takes half the time). Named after the
 * PGlite version: a cluster is only valid for the Postgres build that made it.
 */
export function templatePath(): string {
  const pkg = JSON.parse(
    readFileSync(join(ROOT, "node_modules/@electric-sql/pglite/package.json"), "utf8"),
  ) as { version: string };
  return join(ROOT, "node_modules", ".cache", "formdown", `pglite-${pkg.version}-initdb.tar.gz`);
}

/** The template as a tar, or nothing when it is missing or damaged (then initdb runs). */
export function readTemplate(): Blob | undefined {
  const file = templatePath();
  if (!existsSync(file)) return undefined;
  try {
    // unpacked here: PGlite's own gunzip throws a damaged file's error where no caller catches it
    return new Blob([gunzipSync(readFileSync(file))]);
  } catch {
    return undefined;
  }
}

/** Runs initdb in memory and keeps its dump; written under another name first, then renamed. */
export async function writeTemplate(): Promise<string> {
  const { PGlite } = await import("@electric-sql/pglite");
  const pg = await PGlite.create();
  const dump = await pg.dumpDataDir("gzip");
  await pg.close();
  const file = templatePath();
  mkdirSync(dirname(file), { recursive: true });
  const part = `${file}.${process.pid}.part`;
  writeFileSync(part, new Uint8Array(await dump.arrayBuffer()));
  renameSync(part, file);
  return file;
}
