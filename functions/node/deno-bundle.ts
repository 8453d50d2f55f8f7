import { rm } from "node:fs/promises";
import { join } from "node:path";
import { MIGRATIONS_DIR, migrationFiles } from "../db/migrate.ts";

const root = new URL("../../", import.meta.url).pathname;

/** The Deno entries a build writes, by output name: a Deno host's, Supabase's, the drain's. */
const ENTRIES = {
  main: "functions/deno/main.ts",
  supabase: "supabase/functions/formdown/index.ts",
  "supabase-drain": "supabase/functions/formdown-drain/index.ts",
  drain: "functions/deno/drain.ts",
};

/**
 * The Deno entries as minified ES modules in `outdir` (`npm run build:deno`, issue 28): what a
 * serverless host starts cold. Run from the TypeScript files, Deno resolves, reads and compiles
 * some two hundred modules before it answers; from the bundle it reads a few files, and only those
 * a request needs (the owner API, MCP, GitHub, Postmark and Supabase Storage stay in chunks of
 * their own, loaded on first use). The migrations travel inside, so the bundle needs no
 * checkout beside it. esbuild comes with Astro, as for the CLI's bundle.
 */
export async function bundleDeno(outdir: string): Promise<string[]> {
  const { build } = await import("esbuild");
  const migrations: Record<string, string> = {};
  for (const [file, read] of await migrationFiles(MIGRATIONS_DIR)) migrations[file] = await read();
  await rm(outdir, { recursive: true, force: true });
  const result = await build({
    entryPoints: Object.fromEntries(
      Object.entries(ENTRIES).map(([name, path]) => [name, join(root, path)]),
    ),
    outdir,
    bundle: true,
    splitting: true,
    minify: true,
    platform: "node",
    format: "esm",
    target: "es2023",
    legalComments: "none",
    define: { __FORMDOWN_MIGRATIONS__: JSON.stringify(migrations) },
    // gray-matter and js-yaml are CommonJS and call require("fs"): give every chunk a real require
    banner: {
      js: `import { createRequire as __formdownRequire } from "node:module";\nconst require = __formdownRequire(import.meta.url);`,
    },
    metafile: true,
    logLevel: "warning",
  });
  return Object.keys(result.metafile.outputs);
}
