import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { AppContext } from "../context.ts";
import { reconcileRepository } from "./bootstrap.ts";

const run = promisify(execFile);

/**
 * Embedded mode: "commit it, and it is live". Polls the repository's branch head (a `git
 * rev-parse` every `intervalMs`, cheaper and sturdier than watching .git's files, which git
 * replaces rather than writes) and reconciles the repository at each new head through the one
 * reconcile start-up runs (SPEC §22): added and changed files deployed, renamed ones moved, removed
 * ones closed. Our own commits (a REST deploy) move the head too; reconciling them changes nothing.
 */
export function watchBranchHead(
  ctx: AppContext,
  root: string,
  intervalMs = 1000,
): { stop(): Promise<void>; settled(): Promise<void> } {
  const head = () =>
    run("git", ["-C", root, "rev-parse", "--verify", "--quiet", "HEAD"]).then(
      (r) => r.stdout.trim(),
      () => "",
    );
  let last: Promise<string> = head();
  let busy: Promise<void> = Promise.resolve();
  let stopped = false;

  const check = async () => {
    const before = await last;
    const now = await head();
    if (!now || now === before) return;
    last = Promise.resolve(now);
    const { results } = await reconcileRepository(ctx, { committed: true });
    const changed = results.filter(
      (r) => r.result !== "unchanged" && r.result !== "skipped" && r.result !== "invalid",
    );
    const refused = results.filter((r) => r.result === "invalid").map((r) => r.path);
    if (changed.length + refused.length === 0) return;
    const said = changed.map((r) =>
      r.result === "renamed"
        ? `${r.slug} renamed (was ${r.renamed_from})`
        : `${r.slug} ${r.result}`,
    );
    ctx.log.info(
      `Commit ${now.slice(0, 7)}: ${said.join(", ") || "nothing changed"}${refused.length ? `; not deployed: ${refused.join(", ")} (see above)` : ""}.`,
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
