import { execFile } from "node:child_process";

const CLI = new URL("../../cli/formdown.mjs", import.meta.url).pathname;

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `formdown …` as a subprocess with only the environment given (no user config leaks in). */
export function runFormdown(
  args: string[],
  options: { env: Record<string, string | undefined>; cwd?: string },
): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      {
        env: {
          PATH: process.env.PATH,
          // the compiled-code cache test/run-suites.ts names: a run starts in about half the time
          NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE,
          ...options.env,
        },
        ...(options.cwd ? { cwd: options.cwd } : {}),
      },
      (error, stdout, stderr) =>
        resolve({
          code: error ? (typeof error.code === "number" ? error.code : 1) : 0,
          stdout,
          stderr,
        }),
    );
  });
}
