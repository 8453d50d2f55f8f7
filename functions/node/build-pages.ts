import { spawn } from "node:child_process";
import { existsSync, mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";

const ROOT = resolve(new URL("../../", import.meta.url).pathname);

/** Builds the Astro site when dist/ is missing or older than its sources, so `npm start` is quick later. */
export async function ensurePagesBuilt(): Promise<void> {
  // decided under the lock: while another process builds, dist/ is half written
  await withBuildLock(async () => {
    if (await fresh()) return;
    console.log("Building the respondent pages (Astro)…");
    rmSync(STAMP, { force: true });
    await run({});
    writeFileSync(STAMP, `${new Date().toISOString()}\n`);
  });
}

/** Written once a build of dist/ has finished: Astro writes entry.mjs before the chunks it loads. */
const STAMP = join(ROOT, "dist", ".formdown-built");

async function fresh(): Promise<boolean> {
  const built = existsSync(STAMP) ? statSync(STAMP).mtimeMs : 0;
  const config = statSync(join(ROOT, "astro.config.mjs")).mtimeMs;
  // public/ is copied into the build as it is (embed.js): a change there needs a build too
  const sources = Math.max(await newest(join(ROOT, "src")), await newest(join(ROOT, "public")));
  return built > 0 && config < built && sources < built;
}

type BuildOptions = {
  outDir?: string;
  env?: Record<string, string>;
  /** Keep Astro's error output out of the terminal and put it in the thrown error instead. */
  quiet?: boolean;
};

/**
 * Runs `astro build` in a child process (keeps the build's memory and globals out of the server).
 * Builds in one checkout run one at a time: Astro's content sync keeps shared state on disk.
 */
export function buildPages(options: BuildOptions = {}): Promise<void> {
  return withBuildLock(async () => {
    // dist/ built from other forms is not the checkout's build: the next start builds again
    if (!options.outDir) rmSync(STAMP, { force: true });
    await run(options);
  });
}

const LOCK = join(ROOT, "node_modules", ".cache", "formdown-build.lock");

/**
 * Waits while a build of this checkout runs (at most `limitMs`): Astro writes dist/server/entry.mjs
 * before the chunks and the manifest it imports, so a server loading it mid-build would crash.
 */
export async function buildFinished(limitMs = 300_000): Promise<void> {
  const until = Date.now() + limitMs;
  while (existsSync(LOCK) && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
}

/** Runs `task` while no other build of this checkout runs (Astro keeps shared state on disk). */
export async function withBuildLock(task: () => Promise<void>): Promise<void> {
  const lock = LOCK;
  mkdirSync(dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // a lock older than five minutes belongs to a build that died
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 300_000)
        rmSync(lock, { recursive: true, force: true });
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    await task();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * One worker thread for the bundler's native pools (rolldown's rayon and tokio), libuv and glibc's
 * malloc arenas: each thread otherwise keeps memory of its own. The build then peaked at 420–460
 * MB instead of 480–550 MB (heap cap alone), for about a second more, once. The environment wins.
 */
const LEAN_BUILD = {
  RAYON_NUM_THREADS: "1",
  TOKIO_WORKER_THREADS: "1",
  UV_THREADPOOL_SIZE: "1",
  MALLOC_ARENA_MAX: "1",
};

function run(options: BuildOptions): Promise<void> {
  const args = [
    // a capped JavaScript heap and a 1 MB young generation: the build then peaked at 480–550 MB
    // instead of 630–690 MB (same output, a few hundred ms slower), which counts on the first
    // `npm start` of a small machine
    "--max-old-space-size=256",
    "--max-semi-space-size=1",
    join(ROOT, "node_modules/astro/bin/astro.mjs"),
    "build",
    "--silent",
    ...(options.outDir ? ["--outDir", options.outDir] : []),
  ];
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      stdio: ["ignore", options.quiet ? "ignore" : "inherit", options.quiet ? "pipe" : "inherit"],
      env: { ...LEAN_BUILD, ...process.env, ASTRO_TELEMETRY_DISABLED: "1", ...options.env },
    });
    let errors = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      errors = (errors + chunk.toString()).slice(-16_000);
    });
    child.once("error", fail);
    child.once("exit", (code) =>
      code === 0
        ? done()
        : fail(new Error(`astro build failed (exit ${code})${errors ? `\n${errors}` : ""}`)),
    );
  });
}

async function newest(dir: string): Promise<number> {
  let latest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      latest = Math.max(latest, (await stat(join(entry.parentPath, entry.name))).mtimeMs);
  }
  return latest;
}
