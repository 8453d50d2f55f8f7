// What the fault scenarios share (test/faults/scenario-*.ts): a form to submit to, the CLI, the
// Deno entry.
import { type ChildProcess, spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { FAULT_FORM } from "./load.ts";

export const ROOT = resolve(new URL("../../", import.meta.url).pathname);
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function createForm(base: string, key: string): Promise<void> {
  const res = await fetch(`${base}/api/forms`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify(FAULT_FORM),
  });
  if (res.status !== 201) throw new Error(`create form: ${res.status} ${await res.text()}`);
}

export function runCli(args: string[]): Promise<{ status: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [resolve(ROOT, "cli/formdown.mjs"), ...args], {
      stdio: ["ignore", "ignore", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += d;
    });
    child.once("close", (status) => done({ status, stderr }));
  });
}

/**
 * The Supabase layout's Deno entry (supabase/functions/formdown/index.ts) as its own process on
 * `port`, with PATH, HOME and `env` alone; stdout piped (it prints `URL …` once listening).
 */
export function spawnDenoEntry(
  port: number,
  env: Record<string, string>,
  stderr: "pipe" | "inherit" = "pipe",
): ChildProcess {
  return spawn(
    join(ROOT, "node_modules/.bin/deno"),
    ["run", "-A", "supabase/functions/formdown/index.ts"],
    {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), ...env },
      stdio: ["ignore", "pipe", stderr],
    },
  );
}
