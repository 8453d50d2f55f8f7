import { readFile } from "node:fs/promises";

const root = new URL("../../", import.meta.url).pathname;

/** Where the server answers the bundle. */
export const CLI_PATH = "/cli/formdown.mjs";

/**
 * The `formdown` command line as one JavaScript file for Node >= 20: cli/ and the core it uses
 * (zod, gray-matter, cac) bundled by esbuild (which comes with Astro), so it runs with a bare
 * `node` and no install. `packages/cli/build.mjs` writes it for the npm package; the server
 * answers it at `GET /cli/formdown.mjs` (`formdown init` vendors it, `formdown self-update`
 * refreshes it), built from the very checkout the server runs, so the versions match.
 */
export async function bundleCli(outfile?: string): Promise<string> {
  const { build } = await import("esbuild");
  const version = await serverVersion();
  const result = await build({
    entryPoints: [`${root}cli/formdown.mjs`],
    ...(outfile ? { outfile } : {}),
    write: false,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    legalComments: "none",
    // gray-matter and js-yaml are CommonJS and call require("fs"): give the bundle a real require
    banner: {
      js: `// formdown ${version}: the command line in one file (Node >= 20). Update it with \`node .formdown/formdown.mjs self-update\`.\nimport { createRequire as __formdownRequire } from "node:module";\nconst require = __formdownRequire(import.meta.url);`,
    },
    logLevel: "warning",
  });
  return result.outputFiles[0]!.text;
}

let version: Promise<string> | null = null;

/** The server's version, the one of its package.json. */
export function serverVersion(): Promise<string> {
  version ??= readFile(`${root}package.json`, "utf8").then(
    (text) => (JSON.parse(text) as { version: string }).version,
  );
  return version;
}

let cached: Promise<string> | null = null;

/** `GET /cli/formdown.mjs`: built on first request (under a second), then kept in memory. */
export async function cliBundleResponse(method: string): Promise<Response> {
  cached ??= bundleCli().catch((error: unknown) => {
    cached = null;
    throw error;
  });
  const [body, v] = await Promise.all([cached, serverVersion()]);
  return new Response(method === "HEAD" ? null : body, {
    headers: {
      "content-type": "text/javascript; charset=utf-8",
      "cache-control": "no-cache",
      "x-formdown-version": v,
    },
  });
}
