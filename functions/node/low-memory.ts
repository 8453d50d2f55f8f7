import { enableCompileCache, flushCompileCache } from "node:module";
import { fileURLToPath } from "node:url";

/** V8's flag for baseline wasm code only; benches start an embedded server with it too. */
export const FLAG = "--liftoff-only";

/** V8's heap settings the server runs with, on any database (see relaunch); benches use them too. */
export const HEAP_FLAGS = ["--max-semi-space-size=1", "--heap-growing-percent=30"];

/** The V8 flags `npm start` runs the server with: the heap's, and on PGlite baseline wasm code. */
export function serverFlags(pglite: boolean): string[] {
  return [...HEAP_FLAGS, ...(pglite ? [FLAG] : [])];
}

/** Where Node keeps, between starts, the server's modules with their types stripped and compiled. */
export const COMPILE_CACHE = fileURLToPath(
  new URL("../../node_modules/.cache/formdown/compile", import.meta.url),
);

/** The environment with Node's compile cache in COMPILE_CACHE, unless it says otherwise. */
export function withCompileCache(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env.NODE_COMPILE_CACHE !== undefined || env.NODE_DISABLE_COMPILE_CACHE) return env;
  return { ...env, NODE_COMPILE_CACHE: COMPILE_CACHE };
}

/**
 * The server's modules, those it loads on first use too (the owner's API, MCP, the providers a
 * configuration may name): a module missing from the cache loads the TypeScript stripper again.
 */
const SERVER_MODULES = [
  "./server.ts",
  "../owner-app.ts",
  "../mcp/server.ts",
  "@modelcontextprotocol/server",
  "../services/drafts.ts",
  "../services/file-moves.ts",
  "../http/operations.ts",
  "../mail/postmark-mailer.ts",
  "../repo/github.ts",
  "../storage/supabase.ts",
];

/**
 * Fills the compile cache with the server's modules, so that even a first start (or the first
 * request to the owner's API) finds them there: `npm install` runs it (scripts/compile-cache.ts),
 * and so do the benches' server processes. It only loads them.
 */
export async function warmCompileCache(): Promise<void> {
  const env = withCompileCache(process.env);
  if (!env.NODE_COMPILE_CACHE) return;
  enableCompileCache(env.NODE_COMPILE_CACHE);
  for (const m of SERVER_MODULES)
    await import(m.startsWith(".") ? new URL(m, import.meta.url).href : m);
  flushCompileCache();
}

/**
 * Restarts the process (same pid, same stdio, `process.execve`) as the server should run, when
 * it was not started so; V8 and Node read both settings only at start-up.
 *
 * - Node's compile cache. The server is TypeScript, which Node strips as it loads each module
 *   with a WebAssembly build of SWC that then stays in memory for the process's life. With the
 *   cache a start after the first reads the stripped and compiled modules from COMPILE_CACHE
 *   (Node checks each against its source) and never loads SWC: the server's modules measured
 *   95 MB of RSS, loaded in 155 ms, against 123 MB in 377 ms without it.
 * - PGlite's WebAssembly on V8's baseline compiler only. V8 otherwise recompiles hot wasm
 *   functions with its optimising compiler in the background, and for PGlite's Postgres that
 *   took hundreds of megabytes, again and again (an idle server measured 255 MB with peaks of
 *   760 MB; with baseline code only, 196 MB flat). It costs no speed here: 80,000 rows in batched
 *   INSERTs took 4.8–5.5 s on baseline code and 6.0–6.3 s with the optimiser, whose compiling
 *   competes for the same two cores. Not with DATABASE_URL (no wasm to speak of).
 * - V8's heap sized for a server that should stay small, on either database (HEAP_FLAGS), with
 *   no limit that could end the process. On a machine with gigabytes V8 lets its old generation
 *   grow to four times what survived the last full collection before it collects again: a
 *   1M-row XLSX export (bench/xlsx.ts) took the heap from 33 to 131–229 MB, all but the first
 *   ~35 MB garbage not yet collected. `--heap-growing-percent=30` grows it by 1.3 times, V8's
 *   own factor for small heaps (51 MB at that export's peak), and a young generation of 1 MB
 *   semi-spaces instead of up to 16 MB keeps short-lived objects from adding their share; the
 *   export's speed stayed within the noise (1.9–2.1 MB/s).
 *
 * Not when FORMDOWN_LOW_MEMORY=0 asks for speed over memory (the compile cache stays). A flag
 * the process was started with stays as given. This runs before the configuration is read, so
 * it reads those two itself.
 */
export function relaunch(): void {
  if (typeof process.execve !== "function") return;
  // a flag the process was started with stays (one named twice: V8 takes the last)
  const given = (flag: string) => process.execArgv.some((a) => a.startsWith(flag.split("=")[0]!));
  const flags =
    process.env.FORMDOWN_LOW_MEMORY === "0"
      ? []
      : serverFlags(!process.env.DATABASE_URL).filter((f) => !given(f));
  const env = withCompileCache(process.env);
  if (flags.length === 0 && env === process.env) return;
  try {
    process.execve(
      process.execPath,
      [process.execPath, ...flags, ...process.execArgv, ...process.argv.slice(1)],
      env as Record<string, string>,
    );
  } catch {
    // a platform or sandbox that refuses execve: run on as started
  }
}
