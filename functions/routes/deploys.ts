import type { Hono } from "hono";
import { z } from "zod";
import { raise } from "../../src/core/errors.ts";
import { formIssues } from "../../src/core/validate-form.ts";
import { type Env, requireKey } from "../auth.ts";
import type { AppContext } from "../context.ts";
import { MAX_BODY, readJson } from "../http/body.ts";
import { appliedCommit, reconcile } from "../services/reconcile.ts";

/** What `formdown deploy` sends (SPEC §22): the account's form files at a commit. */
export const DEPLOY = z.object({
  repository: z.string().min(1).max(500),
  commit: z
    .string()
    .regex(/^[0-9a-f]{7,64}$/)
    .nullable(),
  files: z
    .array(
      z.object({
        path: z.string().max(500),
        markdown: z.string(),
        translations: z.record(z.string().max(35), z.object({ content: z.string() })).optional(),
      }),
    )
    .max(1000),
  renames: z
    .array(z.object({ from: z.string().max(500), to: z.string().max(500) }))
    .max(1000)
    .default([]),
  /** Present at the commit but not deployed (the bundled examples beside forms of one's own). */
  keep: z.array(z.string().max(500)).max(1000).default([]),
  complete: z.boolean().default(true),
  dry_run: z.boolean().default(false),
  confirm: z.boolean().default(false),
});

export function deployRoutes(app: Hono<Env>, ctx: AppContext): void {
  const key = requireKey(ctx);
  // one reconcile: the same function start-up and the branch watcher run
  app.post("/api/deploys", key, async (c) => {
    const body = DEPLOY.safeParse(await readJson(c, 8 * MAX_BODY), { reportInput: true });
    if (!body.success)
      return raise("validation_failed", "The body is not a deploy.", {
        details: formIssues(body.error),
      });
    const d = body.data;
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
  });
  app.get("/api/deploys/head", key, async (c) => {
    const repository = c.req.query("repository");
    if (!repository || repository.length > 500)
      raise("invalid_request", "repository must name the repository (at most 500 characters).");
    return c.json({
      repository,
      commit: await appliedCommit(ctx, c.get("account"), repository!),
    });
  });
}
