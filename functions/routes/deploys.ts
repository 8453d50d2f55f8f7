import type { Hono } from "hono";
import { raise } from "../../src/core/errors.ts";
import { formIssues } from "../../src/core/validate-form.ts";
import type { Env } from "../auth.ts";
import type { AppContext } from "../context.ts";
import { errors, json, query, REFUSED, requestBody } from "../contracts/common.ts";
import { applied, deployBody, headQuery, reconciled } from "../contracts/deploys.ts";
import { MAX_BODY, readJson } from "../http/body.ts";
import { appliedCommit, reconcile } from "../services/reconcile.ts";
import { keyed } from "./operation.ts";

export function deployRoutes(app: Hono<Env>, ctx: AppContext): void {
  const op = keyed(ctx);
  // one reconcile: the same function start-up and the branch watcher run
  app.post(
    "/api/deploys",
    op(
      "reconcileDeploy",
      "Reconcile the account's form files at a commit (what `formdown deploy` sends): added and changed files deployed, renamed ones moved (same id; old URL 301), removed ones closed; idempotent",
      { 200: json(reconciled), ...errors("TooLarge"), ...REFUSED },
      { requestBody: requestBody(deployBody) },
    ),
    async (c) => {
      const body = deployBody.safeParse(await readJson(c, 8 * MAX_BODY), { reportInput: true });
      if (!body.success)
        return raise("validation_failed", "The body is not a deploy.", {
          details: formIssues(body.error),
        });
      const d = body.data;
      // the pages the workflow has just published, so each result's link names where it is
      await ctx.pages.refresh();
      const done = await reconcile(ctx, c.get("account"), {
        repository: d.repository,
        commit: d.commit,
        files: d.files.map((f) => ({
          path: f.path,
          text: f.markdown,
          translations: Object.fromEntries(
            Object.entries(f.translations ?? {}).map(([lang, t]) => [lang, t.content]),
          ),
        })),
        renames: d.renames,
        complete: d.complete,
        keep: d.keep,
        dryRun: d.dry_run,
        confirm: d.confirm,
      });
      return c.json({ ...done, dry_run: d.dry_run });
    },
  );
  app.get(
    "/api/deploys/head",
    op(
      "getDeployedCommit",
      "The last commit reconciled from a repository into the caller's account",
      { 200: json(applied), ...REFUSED },
    ),
    query(headQuery),
    async (c) => {
      const { repository } = c.req.valid("query");
      return c.json({ repository, commit: await appliedCommit(ctx, c.get("account"), repository) });
    },
  );
}
