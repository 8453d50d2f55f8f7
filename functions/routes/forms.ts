import type { Hono } from "hono";
import { type Env, requireKey } from "../auth.ts";
import type { AppContext } from "../context.ts";
import { readJson } from "../http/body.ts";
import { updateAccess } from "../services/access.ts";
import { upsertForm } from "../services/deploy.ts";
import { publishForm, rotatePreview } from "../services/drafts.ts";
import { closeRemovedForm, renameForm } from "../services/file-moves.ts";
import { createForm, deleteForm, getForm, listForms, updateForm } from "../services/forms.ts";
import { planRequest } from "../services/versions/plan.ts";
import { flag } from "./versions.ts";

export function formRoutes(app: Hono<Env>, ctx: AppContext): void {
  const key = requireKey(ctx);
  app.get("/api/forms", key, async (c) => c.json(await listForms(ctx, c.get("account"))));
  app.post("/api/forms", key, async (c) =>
    c.json(await createForm(ctx, c.get("account"), await readJson(c)), 201),
  );
  app.get("/api/forms/:slug", key, async (c) =>
    c.json(await getForm(ctx, c.get("account"), c.req.param("slug"), c.req.query("lang"))),
  );
  // ?dry_run=true answers the plan and changes nothing; ?confirm=true accepts a destructive one
  app.patch("/api/forms/:slug", key, async (c) => {
    const [account, slug, body] = [c.get("account"), c.req.param("slug"), await readJson(c)];
    if (flag(c.req.query("dry_run"), "dry_run"))
      return c.json(await planRequest(ctx, account, slug, body, { patch: true }));
    const confirm = flag(c.req.query("confirm"), "confirm");
    return c.json(await updateForm(ctx, account, slug, body, { confirm }));
  });
  // create-or-update in place from a definition or `{markdown}` (what `formdown deploy` calls)
  app.put("/api/forms/:slug", key, async (c) => {
    const [account, slug, body] = [c.get("account"), c.req.param("slug"), await readJson(c)];
    if (flag(c.req.query("dry_run"), "dry_run"))
      return c.json(await planRequest(ctx, account, slug, body));
    const confirm = flag(c.req.query("confirm"), "confirm");
    const done = await upsertForm(ctx, account, slug, body, undefined, { confirm });
    return c.json(done, done.result === "created" ? 201 : 200);
  });
  app.delete("/api/forms/:slug", key, async (c) => {
    await deleteForm(ctx, c.get("account"), c.req.param("slug"));
    return c.body(null, 204);
  });
  app.post("/api/forms/:slug/publish", key, async (c) =>
    c.json(await publishForm(ctx, c.get("account"), c.req.param("slug"))),
  );
  app.post("/api/forms/:slug/preview/rotate", key, async (c) =>
    c.json(await rotatePreview(ctx, c.get("account"), c.req.param("slug"))),
  );
  // a form file removed or renamed (what `formdown deploy` calls for git's D and R)
  app.post("/api/forms/:slug/close", key, async (c) =>
    c.json(await closeRemovedForm(ctx, c.get("account"), c.req.param("slug"))),
  );
  app.post("/api/forms/:slug/rename", key, async (c) => {
    const body = (await readJson(c)) as { slug?: unknown };
    return c.json(
      await renameForm(ctx, c.get("account"), c.req.param("slug"), body.slug as string),
    );
  });
  app.put("/api/forms/:slug/access", key, async (c) =>
    c.json(await updateAccess(ctx, c.get("account"), c.req.param("slug"), await readJson(c))),
  );
}
