import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { AppContext } from "../context.ts";
import { deployRepositoryForms } from "./bootstrap.ts";

const run = promisify(execFile);

/**
 * Embedded mode: "commit it, and it is live". Polls the repository's branch head (a `git
 * rev-parse` every `intervalMs`, cheaper and sturdier than watching .git's files, which git
 * replaces rather than writes) and deploys the form files the new commits touched through the
 * start-up deploy — the same service path, so whatever guard the deploy applies applies here.
 * Our own commits (a REST deploy) move the head too; deploying them again changes nothing.
 * A removed file is not a deletion: that stays an explicit `formdown` or REST call.
 */
export function watchBranchHead(
  ctx: AppContext,
  root: string,
  intervalMs = 1000,
): { stop(): Promise<void>; settled(): Promise<void> } {
  const git = async (...args: string[]) =>
    (await run("git", ["-C", root, ...args], { maxBuffer: 4 << 20 })).stdout.trim();
  const head = () => git("rev-parse", "--verify", "--quiet", "HEAD").catch(() => "");
  let last: Promise<string> = head();
  let busy: Promise<void> = Promise.resolve();
  let stopped = false;

  const check = async () => {
    const before = await last;
    const now = await head();
    if (!now || now === before) return;
    last = Promise.resolve(now);
    const changed = before
      ? await git(
          "diff",
          "--name-only",
          "--relative",
          "--no-renames",
          "--diff-filter=AM",
          before,
          now,
          "--",
          "forms",
        )
      : await git("ls-tree", "-r", "--name-only", now, "--", "forms");
    const paths = new Set(changed.split("\n").filter(Boolean));
    if (paths.size === 0) return;
    const { deployed, invalid } = await deployRepositoryForms(ctx, paths);
    ctx.log.info(
      `Commit ${now.slice(0, 7)}: ${deployed.length} form file(s) live${invalid.length ? `, not deployed: ${invalid.join(", ")} (see above)` : ""}.`,
    );
  };
  const timer = setInterval(() => {
    busy = busy
      .then(() => (stopped ? undefined : check()))
      .catch((e: unknown) => {
        ctx.log.error("watching the repository's branch head failed", e);
      });
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await busy;
    },
    settled: () => busy,
  };
}
