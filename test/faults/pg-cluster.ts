// A throwaway PostgreSQL cluster for the fault suites: its own data directory and port, so a
// test may stop and restart it mid-load without touching the shared server on 5432.
//
// It needs the server binaries of the Debian/Ubuntu `postgresql` package
// (/usr/lib/postgresql/<version>/bin) or PG_BIN pointing at a directory with initdb and pg_ctl.
// Postgres refuses to run as root: when the tests run as root, initdb and pg_ctl run as the
// `postgres` system user (spawned with its uid/gid; the data directory is chowned to it).
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface PgCluster {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  port: number;
  dir: string;
  /**
   * `pg_ctl start`. Like `stop`, it runs beside the test's event loop: a synchronous spawn would
   * hold the load generator's answers until pg_ctl returned and count that time as the server's.
   */
  start(): Promise<void>;
  /** `pg_ctl stop -m fast`: open sessions are ended, the shutdown checkpoint written; in ms. */
  stop(mode?: "fast" | "immediate" | "smart"): Promise<number>;
  /**
   * SIGSTOP to the postmaster and every backend: the server keeps its connections open but
   * answers nothing (a hung host or a network that drops packets). `thaw` sends SIGCONT.
   */
  freeze(): void;
  thaw(): void;
  /** Stops it (immediate) and removes its directory. */
  destroy(): void;
}

/** The newest installed server's bin directory, or null. */
export function findPgBin(): string | null {
  if (process.env.PG_BIN)
    return existsSync(join(process.env.PG_BIN, "pg_ctl")) ? process.env.PG_BIN : null;
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "pg_ctl")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(root, versions[0], "bin") : null;
}

function postgresUser(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
  return { uid, gid };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

export async function createPgCluster(): Promise<PgCluster> {
  const bin = findPgBin();
  if (!bin) throw new Error("no PostgreSQL server binaries (set PG_BIN)");
  const user = postgresUser();
  const dir = mkdtempSync(join(tmpdir(), "formdown-pgcluster-"));
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, "data");
  const port = await freePort();
  const spawnOptions = {
    cwd: dir,
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
    env: { ...process.env, LC_ALL: "C", HOME: dir },
    timeout: 120_000,
  };
  const failed = (tool: string, args: string[], why: unknown) =>
    new Error(`${tool} ${args.join(" ")} failed: ${why}`);
  const run = (tool: string, args: string[]) => {
    const r = spawnSync(join(bin, tool), args, { ...spawnOptions, encoding: "utf8" });
    if (r.status !== 0) throw failed(tool, args, r.stderr || r.stdout || r.error);
  };
  const runAsync = (tool: string, args: string[]) =>
    new Promise<void>((resolve, reject) => {
      // pg_ctl start leaves the postmaster holding its stdout: read nothing, or wait for ever
      const child = spawn(join(bin, tool), args, { ...spawnOptions, stdio: "ignore" });
      child.once("error", (error) => reject(failed(tool, args, error)));
      child.once("exit", (code) =>
        code === 0 ? resolve() : reject(failed(tool, args, `exit code ${code}`)),
      );
    });
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=60`;
  const log = join(dir, "log");
  const signalAll = (signal: NodeJS.Signals) => {
    const postmaster = Number(readFileSync(join(data, "postmaster.pid"), "utf8").split("\n")[0]);
    const children = readFileSync(`/proc/${postmaster}/task/${postmaster}/children`, "utf8")
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
    for (const pid of [postmaster, ...children]) {
      try {
        process.kill(pid, signal);
      } catch {
        // a backend that just exited
      }
    }
  };
  const cluster: PgCluster = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dir,
    start: () => runAsync("pg_ctl", ["start", "-w", "-D", data, "-l", log, "-o", options]),
    async stop(mode = "fast") {
      const t = performance.now();
      await runAsync("pg_ctl", ["stop", "-w", "-D", data, "-m", mode]);
      return performance.now() - t;
    },
    freeze() {
      signalAll("SIGSTOP");
    },
    thaw() {
      signalAll("SIGCONT");
    },
    destroy() {
      try {
        run("pg_ctl", ["stop", "-w", "-D", data, "-m", "immediate"]);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
  await cluster.start();
  return cluster;
}
