/** V8's flag for baseline wasm code only; benches start an embedded server with it too. */
export const FLAG = "--liftoff-only";

/**
 * The embedded server runs PGlite's WebAssembly on V8's baseline compiler only. V8 otherwise
 * recompiles hot wasm functions with its optimising compiler in the background, and for
 * PGlite's Postgres that took hundreds of megabytes, again and again (an idle server measured
 * 255 MB with peaks of 760 MB; with baseline code only, 196 MB flat). It costs no speed here:
 * 80,000 rows in batched INSERTs took 4.8–5.5 s on baseline code and 6.0–6.3 s with the
 * optimiser, whose compiling competes for the same two cores. V8 reads the flag only at start-up,
 * so the process replaces itself (same pid, same stdio, `process.execve`) with one started with
 * it. Not with DATABASE_URL (no wasm to speak of), and not when FORMDOWN_LOW_MEMORY=0 asks for
 * speed over memory. This runs before the configuration is read, so it reads those two itself.
 */
export function liftoffOnly(): void {
  if (process.execArgv.includes(FLAG)) return;
  if (process.env.DATABASE_URL || process.env.FORMDOWN_LOW_MEMORY === "0") return;
  if (typeof process.execve !== "function") return;
  try {
    process.execve(
      process.execPath,
      [process.execPath, FLAG, ...process.execArgv, ...process.argv.slice(1)],
      process.env as Record<string, string>,
    );
  } catch {
    // a platform or sandbox that refuses execve: run on, optimiser and all
  }
}
