import type { Hono } from "hono";
import { raise } from "../../src/core/errors.ts";
import { type Env, requireKey } from "../auth.ts";
import type { AppContext } from "../context.ts";
import { readJson } from "../http/body.ts";
import { listVersions } from "../services/versions/history.ts";
import { planRequest } from "../services/versions/plan.ts";

/** `?confirm=true`, `?dry_run=true`: absent is false; anything but true/false is a 400. */
export function flag(value: string | undefined, name: string): boolean {
  if (value === undefined || value === "false") return false;
  if (value === "true") return true;
  return raise("invalid_param", `${name} must be true or false.`);
}

/** Versions and plans (SPEC §16): the history of a form, and what a change would do. */
export function versionRoutes(app: Hono<Env>, ctx: AppContext): void {
  const key = requireKey(ctx);
  app.get("/api/forms/:slug/versions", key, async (c) =>
    c.json(await listVersions(ctx, c.get("account"), c.req.param("slug"))),
  );
  app.post("/api/forms/:slug/plan", key, async (c) =>
    c.json(await planRequest(ctx, c.get("account"), c.req.param("slug"), await readJson(c))),
  );
}
