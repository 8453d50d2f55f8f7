import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { PGlite } from "@electric-sql/pglite";

/**
 * Postgres settings for the embedded database, after PGlite's own start parameters. PGlite keeps
 * Postgres's server defaults, sized for a machine that runs nothing else: 128 MB of shared
 * buffers alone grew its WebAssembly memory past the 128 MB it starts with (and wasm memory
 * never shrinks). A single-user database running one statement at a time needs far less; the
 * operating system's page cache still holds the data files. 8 MB rather than 16: PGlite touches
 * all of its buffers at start, so a server on a million responses started 8–9 MB smaller (140–142
 * against 149–151 MB, twice each), read them at the same speed, and 9,600 batched inserts took
 * 110–120 ms against 115–135. Durability is untouched: PGlite decides fsync (see README).
 */
export const PGLITE_SETTINGS = [
  "shared_buffers=8MB",
  "temp_buffers=2MB",
  "maintenance_work_mem=16MB",
];

export async function pgliteStartParams(): Promise<string[]> {
  const { PGlite } = await import("@electric-sql/pglite");
  return [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((s) => ["-c", s])];
}

const INIT = join(import.meta.dirname, "pglite-init.ts");

/**
 * A new data directory is created by a short-lived child process. PGlite's initdb runs a second
 * database and the initdb program beside the first, and the memory they took stays with the
 * process (about 240 MB more, measured, after the first start; 1.1 GB at its peak): in a child
 * it goes back to the system when the child exits. The child runs V8's baseline wasm compiler
 * only (`--liftoff-only`), which halves that peak, and a small JavaScript heap (the data moves
 * in ArrayBuffers outside it), which takes another 20–40 MB off: about 550 MB, measured.
 */
async function initInChild(dataDir: string): Promise<void> {
  const flags = ["--liftoff-only", "--max-semi-space-size=1", "--max-old-space-size=128"];
  const child = spawn(process.execPath, [...flags, INIT, dataDir], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (d) => {
    stderr += d;
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once("error", reject);
    child.once("exit", resolve);
  });
  if (code !== 0) throw new Error(`could not create the database in ${dataDir}: ${stderr.trim()}`);
}

/** PGlite is loaded only when the embedded database is used. */
export async function openPglite(dataDir: string): Promise<PGlite> {
  if (!existsSync(join(dataDir, "PG_VERSION"))) await initInChild(dataDir);
  const { PGlite } = await import("@electric-sql/pglite");
  return PGlite.create({ dataDir, startParams: await pgliteStartParams() });
}
