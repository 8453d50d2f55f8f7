import { type ChildProcess, spawn } from "node:child_process";

/** A command that keeps running (`formdown dev`): its output so far, and a wait for a state. */
export interface RunningCli {
  child: ChildProcess;
  /** stdout and stderr as they came, together. */
  output(): string;
  /** Polls the output until `pattern` matches (a deadline only guards against a hang). */
  waitFor(pattern: RegExp, deadline?: number): Promise<RegExpMatchArray>;
  /** SIGTERM (what Ctrl+C does), then the exit code. */
  stop(): Promise<number | null>;
}

export function spawnCli(
  args: string[],
  options: { cwd: string; env: Record<string, string | undefined> },
): RunningCli {
  const child = spawn(process.execPath, args, {
    cwd: options.cwd,
    env: {
      PATH: process.env.PATH,
      NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE,
      ...options.env,
    },
  });
  let text = "";
  child.stdout.on("data", (d: Buffer) => {
    text += d.toString();
  });
  child.stderr.on("data", (d: Buffer) => {
    text += d.toString();
  });
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  return {
    child,
    output: () => text,
    async waitFor(pattern, deadline = 60_000) {
      const end = Date.now() + deadline;
      for (;;) {
        const m = text.match(pattern);
        if (m) return m;
        if (child.exitCode !== null || Date.now() > end)
          throw new Error(`no ${pattern} in the output (exit ${child.exitCode}):\n${text}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop() {
      if (child.exitCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}

/** Polls `read` until `ok` holds of its value; a generous deadline only guards against a hang. */
export async function until<T>(
  read: () => Promise<T>,
  ok: (value: T) => boolean,
  deadline = 60_000,
): Promise<T> {
  const end = Date.now() + deadline;
  for (;;) {
    const value = await read();
    if (ok(value)) return value;
    if (Date.now() > end)
      throw new Error(`still not there: ${JSON.stringify(value).slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
