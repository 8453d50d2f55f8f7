import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { join } from "node:path";

/**
 * PGlite does not lock its data directory, and two processes sharing one silently lose rows
 * (TECH.md §4). We hold an O_EXCL lock file with our pid; a lock whose pid is gone is stale.
 */
export function lockDataDir(dir: string): () => void {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "formdown.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx", 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(path, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const pid = Number(readFileSync(path, "utf8"));
      if (pid && pid !== process.pid && alive(pid)) {
        throw new Error(
          `The data directory ${dir} is in use by another Formdown process (pid ${pid}). ` +
            "Stop it first, or set FORMDOWN_DATA_DIR to another directory.",
        );
      }
      if (pid === process.pid) {
        throw new Error(`The data directory ${dir} is already open in this process.`);
      }
      rmSync(path, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`Could not lock the data directory ${dir}.`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  return !zombie(pid);
}

/**
 * A process killed but not yet reaped by its parent (state Z) still answers kill(pid, 0), yet
 * it has exited and holds no files: its lock is stale. Linux only (/proc); elsewhere false.
 */
export function zombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // "pid (comm) state …": comm may hold spaces and parentheses, so read after the last ")"
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) === "Z";
  } catch {
    return false;
  }
}
