// `node functions/node/start.ts` as a real child process — what `npm start` runs — so a fault
// suite can kill it with SIGKILL and start another on the same data directory.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort } from "./pg-cluster.ts";

const ROOT = resolve(new URL("../../", import.meta.url).pathname);

export interface ChildServer {
  url: string;
  child: ChildProcess;
  /** Everything it printed. */
  output: () => string;
  /** SIGKILL, and wait for the process to be gone. */
  kill9(): Promise<void>;
  /** SIGTERM (a clean stop), and wait. */
  stop(): Promise<void>;
}

export interface ChildOptions {
  dataDir: string;
  repoDir?: string;
  env?: Record<string, string>;
  port?: number;
  /** Flags for node itself (before the script). */
  nodeArgs?: string[];
}

export async function startChild(options: ChildOptions): Promise<ChildServer> {
  const port = options.port ?? (await freePort());
  const ownRepo = options.repoDir === undefined;
  const repoDir = options.repoDir ?? mkdtempSync(join(tmpdir(), "formdown-fault-repo-"));
  const cleanUp = () => {
    if (ownRepo) rmSync(repoDir, { recursive: true, force: true });
  };
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), join(ROOT, "functions/node/start.ts")],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        FORMDOWN_DATA_DIR: options.dataDir,
        FORMDOWN_REPO_DIR: repoDir,
        // the load comes from one address: the limiter is not what these suites test
        FORMDOWN_RATE_SUBMIT: "0",
        FORMDOWN_RATE_API: "0",
        ASTRO_TELEMETRY_DISABLED: "1",
        ...options.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  child.stdout!.on("data", (d) => {
    out += d;
  });
  child.stderr!.on("data", (d) => {
    out += d;
  });
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  await new Promise<void>((ready, fail) => {
    const timer = setTimeout(() => {
      // leave nothing running behind a failed start
      child.kill("SIGKILL");
      cleanUp();
      fail(new Error(`server did not start:\n${out}`));
    }, 90_000);
    const look = () => {
      if (out.includes("Formdown is running")) {
        clearTimeout(timer);
        ready();
      }
    };
    child.stdout!.on("data", look);
    child.once("exit", (code) => {
      clearTimeout(timer);
      fail(new Error(`server exited (${code}):\n${out}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => out,
    async kill9() {
      child.kill("SIGKILL");
      await exited;
      cleanUp();
    },
    async stop() {
      child.kill("SIGTERM");
      await exited;
      cleanUp();
    },
  };
}

/** The key the embedded server wrote on its first start. */
export const firstKey = (dataDir: string) => readFileSync(join(dataDir, "api-key"), "utf8").trim();
