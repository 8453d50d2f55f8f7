// What `npm start` runs (functions/node/start.ts) restarts itself as the server should run
// (functions/node/low-memory.ts): with Node's compile cache, so a start after the first never
// loads the TypeScript stripper, with V8's heap settings for a small server, and on PGlite with
// baseline wasm code only. `npm install` fills the cache with every module the server loads,
// those it loads on first use included.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { get } from "node:http";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { COMPILE_CACHE, FLAG, HEAP_FLAGS } from "../../functions/node/low-memory.ts";
import { startChild } from "../faults/child-server.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const dirs: string[] = [];
const tempDir = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** GET /api/health on a connection of its own, closed after the answer. */
const healthStatus = (url: string) =>
  new Promise<number | undefined>((done, fail) =>
    get(`${url}/api/health`, { agent: false }, (res) => {
      res.resume();
      done(res.statusCode);
    }).once("error", fail),
  );

describe("how the server process runs", () => {
  it("restarts itself with the compile cache, V8's heap settings and, on PGlite, baseline wasm code only", async () => {
    const dataDir = tempDir("formdown-start-");
    const server = await startChild({
      dataDir,
      // as a shell would start it: nothing set (the suites' runner sets a cache of its own)
      env: { NODE_COMPILE_CACHE: undefined } as unknown as Record<string, string>,
    });
    try {
      const pid = server.child.pid!;
      const environ = readFileSync(`/proc/${pid}/environ`, "utf8").split("\0");
      const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      expect(environ).toContain(`NODE_COMPILE_CACHE=${COMPILE_CACHE}`);
      expect(argv).toContain(FLAG);
      // V8's heap settings for a small server (a 1M-row XLSX export peaked at 375 MB without)
      for (const flag of HEAP_FLAGS) expect(argv).toContain(flag);
      expect(argv).toContain(join(ROOT, "functions/node/start.ts"));
      // asked without keep-alive: a stop waits up to FORMDOWN_DRAIN_MS for a kept-alive
      // connection (SPEC §17), and this test is not about that wait
      expect(await healthStatus(server.url)).toBe(200);
      // beside its key, the URL it listens on: the CLI of this checkout finds it on any PORT
      expect(readFileSync(join(dataDir, "url"), "utf8")).toBe(`${server.url}\n`);
    } finally {
      await server.stop();
    }
    // a clean stop takes it away: no CLI is sent to a server that is gone
    expect(existsSync(join(dataDir, "url"))).toBe(false);
  });

  it("finds every server module in the cache npm install filled, those loaded on first use too", () => {
    const env = { ...process.env, NODE_COMPILE_CACHE: tempDir("formdown-cache-") };
    execFileSync(process.execPath, [join(ROOT, "scripts/compile-cache.ts")], { env });
    const modules = [
      "functions/node/server.ts",
      "functions/owner-app.ts",
      "functions/mcp/server.ts",
    ];
    const run = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        modules.map((m) => `await import(${JSON.stringify(join(ROOT, m))});`).join(""),
      ],
      { env: { ...env, NODE_DEBUG_NATIVE: "COMPILE_CACHE" }, encoding: "utf8" },
    );
    expect(run.status).toBe(0);
    // Node says on stderr what its cache did: each module found, or one it had to strip
    const found = run.stderr.match(/retrieving transpile cache for StrippedTypeScript \S+success/g);
    expect(found?.length).toBeGreaterThan(200);
    expect(run.stderr).toContain(
      `StrippedTypeScript file://${join(ROOT, "functions/owner-app.ts")}`,
    );
    expect(run.stderr.match(/no transpile cache for StrippedTypeScript \S+/g)).toBeNull();
  });
});
