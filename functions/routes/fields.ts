import type { Hono } from "hono";
import { z } from "zod";
import { raise } from "../../src/core/errors.ts";
import { formIssues } from "../../src/core/validate-form.ts";
import { type Env, requireKey } from "../auth.ts";
import type { AppContext } from "../context.ts";
import { readJson } from "../http/body.ts";
import { moveField, removeField, updateField } from "../services/field-changes.ts";
import { flag } from "./versions.ts";

/**
 * One field at a time (SPEC §18): PATCH changes a field's keys (the body), DELETE removes it,
 * POST …/move puts it `{before}` or `{after}` another. Each answers `{slug, version, field, plan}`;
 * `?dry_run=true` only plans, `?confirm=true` accepts a plan that strands stored answers.
 */
const MOVE = z.object({ before: z.string().optional(), after: z.string().optional() });

export function fieldRoutes(app: Hono<Env>, ctx: AppContext): void {
  const key = requireKey(ctx);
  const options = (c: { req: { query(name: string): string | undefined } }) => ({
    dryRun: flag(c.req.query("dry_run"), "dry_run"),
    confirm: flag(c.req.query("confirm"), "confirm"),
  });
  app.patch("/api/forms/:slug/fields/:id", key, async (c) => {
    const [slug, id] = [c.req.param("slug"), c.req.param("id")];
    const body = await readJson(c);
    return c.json(await updateField(ctx, c.get("account"), slug, id, body, options(c)));
  });
  app.delete("/api/forms/:slug/fields/:id", key, async (c) =>
    c.json(
      await removeField(ctx, c.get("account"), c.req.param("slug"), c.req.param("id"), options(c)),
    ),
  );
  app.post("/api/forms/:slug/fields/:id/move", key, async (c) => {
    const [slug, id] = [c.req.param("slug"), c.req.param("id")];
    const body = MOVE.safeParse(await readJson(c), { reportInput: true });
    if (!body.success)
      return raise("validation_failed", "The body is {before} or {after}: a field id.", {
        details: formIssues(body.error),
      });
    return c.json(await moveField(ctx, c.get("account"), slug, id, body.data, options(c)));
  });
}
