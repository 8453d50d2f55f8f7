// The long-running commands the README gives an operator, stopped the way a container runtime or
// a supervisor stops them: SIGTERM to the npm process alone (SPEC §17, graceful stop). npm hands
// the signal to its script's shell; unless that shell has exec'd the server, the server never
// hears it — npm exits and leaves it running (or the container's end kills it mid-request).
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, sleep } from "./common.ts";
import { freePort } from "./pg-cluster.ts";

const dir = mkdtempSync(join(tmpdir(), "formdown-npm-signal-"));
const started: ChildProcess[] = [];

afterAll(() => {
  // whatever a failed run left behind: npm was started as the leader of its own process group
  for (const child of started)
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {}
  rmSync(dir, { recursive: true, force: true });
});

/** `npm <args>` in the checkout, alone in a new process group (as PID 1 of a container is). */
function npm(args: string[], env: Record<string, string>) {
  const child = spawn("npm", args, {
    cwd: ROOT,
    env: { ...process.env, ASTRO_TELEMETRY_DISABLED: "1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  started.push(child);
  let output = "";
  child.stdout!.on("data", (d) => {
    output += d;
  });
  child.stderr!.on("data", (d) => {
    output += d;
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((r) =>
    child.once("exit", (code, signal) => r({ code, signal })),
  );
  return { child, exited, output: () => output };
}

const until = async (what: () => boolean, ms = 120_000) => {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error("timed out");
    await sleep(100);
  }
};

/** True once no process of the group is left (the server was not orphaned). */
const groupGone = (pid: number) => {
  try {
    process.kill(-pid, 0);
    return false;
  } catch {
    return true;
  }
};

describe("SIGTERM to npm alone", () => {
  it("npm start hands it to the server, which stops gracefully; npm exits 0", async () => {
    const run = npm(["start"], {
      PORT: String(await freePort()),
      HOST: "127.0.0.1",
      FORMDOWN_DATA_DIR: join(dir, "data"),
      FORMDOWN_REPO_DIR: dir,
    });
    await until(() => run.output().includes("Formdown is running"));
    run.child.kill("SIGTERM");
    expect(await run.exited).toEqual({ code: 0, signal: null });
    expect(run.output()).toContain("SIGTERM: finishing requests");
    await until(() => groupGone(run.child.pid!), 10_000);
  }, 180_000);

  const pg = process.env.TEST_DATABASE_URL;
  it.runIf(pg)(
    "npm run formdown -- drain --every (the drain as a service) stops on it too",
    async () => {
      const name = `formdown_npm_signal_${process.pid}_${Date.now()}`;
      const admin = postgres(pg!, { max: 1, onnotice: () => {} });
      await admin.unsafe(`create database ${name}`);
      try {
        const u = new URL(pg!);
        u.pathname = `/${name}`;
        const env = { DATABASE_URL: u.toString(), FORMDOWN_REPO_DIR: dir };
        expect((await npm(["run", "-s", "formdown", "--", "migrate"], env).exited).code).toBe(0);
        const run = npm(["run", "-s", "formdown", "--", "drain", "--every", "1"], env);
        await until(() => run.output().includes('"sent"'));
        run.child.kill("SIGTERM");
        expect(await run.exited).toEqual({ code: 0, signal: null });
        await until(() => groupGone(run.child.pid!), 10_000);
      } finally {
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    },
    120_000,
  );
});
