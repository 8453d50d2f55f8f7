import type { Hono } from "hono";
import { z } from "zod";
import type { Env } from "../auth.ts";
import type { AppContext } from "../context.ts";
import { errors, json, none, OWNER, query, REFUSED, requestBody } from "../contracts/common.ts";
import {
  accessAnswer,
  accessBody,
  change,
  closed,
  createBody,
  deployBody,
  formCreated,
  formDeployed,
  formDetail,
  formSummary,
  lang,
  patchBody,
  plan,
  published,
  renameBody,
  renamed,
  rotated,
} from "../contracts/forms.ts";
import { readJson } from "../http/body.ts";
import { updateAccess } from "../services/access.ts";
import { upsertForm } from "../services/deploy.ts";
import { publishForm, rotatePreview } from "../services/drafts.ts";
import { closeRemovedForm, renameForm } from "../services/file-moves.ts";
import { createForm, deleteForm, getForm, listForms, updateForm } from "../services/forms.ts";
import { planRequest } from "../services/versions/plan.ts";
import { answer, keyed, nothing } from "./operation.ts";
import { needsConfirmation } from "./versions.ts";

export function formRoutes(app: Hono<Env>, ctx: AppContext): void {
  const op = keyed(ctx);
  const changed = query(change);
  app.get(
    "/api/forms",
    op("listForms", "List your forms", { 200: json(formSummary.array()), ...OWNER }),
    answer((account) => listForms(ctx, account)),
  );
  app.post(
    "/api/forms",
    op(
      "createForm",
      "Create a form",
      {
        201: json(formCreated),
        ...errors("BadRequest", "Unauthorized", "Forbidden", "Conflict", "TooLarge", "RateLimited"),
      },
      { requestBody: createBody },
    ),
    answer(async (account, _, c) => createForm(ctx, account, await readJson(c)), 201),
  );
  app.get(
    "/api/forms/:slug",
    op("getForm", "A form's definition and stats (`?lang=`: in one of its languages, SPEC §20)", {
      200: json(formDetail),
      ...REFUSED,
    }),
    query(lang),
    async (c) =>
      c.json(await getForm(ctx, c.get("account"), c.req.param("slug"), c.req.valid("query").lang)),
  );
  app.patch(
    "/api/forms/:slug",
    op(
      "updateForm",
      "Change part of a form (`?dry_run=true`: the plan only)",
      { 200: json(z.union([formDetail, plan])), ...REFUSED, ...needsConfirmation },
      { requestBody: patchBody },
    ),
    changed,
    async (c) => {
      const [account, slug, body] = [c.get("account"), c.req.param("slug"), await readJson(c)];
      const { dry_run, confirm } = c.req.valid("query");
      if (dry_run) return c.json(await planRequest(ctx, account, slug, body, { patch: true }));
      return c.json(await updateForm(ctx, account, slug, body, { confirm }));
    },
  );
  // create-or-update in place from a definition or `{markdown}` (what `formdown deploy` calls)
  app.put(
    "/api/forms/:slug",
    op(
      "deployForm",
      "Create or update a form in place (deploy; `?dry_run=true`: the plan only)",
      {
        200: json(z.union([formDeployed, plan])),
        201: json(formDeployed),
        ...REFUSED,
        ...needsConfirmation,
      },
      { requestBody: deployBody },
    ),
    changed,
    async (c) => {
      const [account, slug, body] = [c.get("account"), c.req.param("slug"), await readJson(c)];
      const { dry_run, confirm } = c.req.valid("query");
      if (dry_run) return c.json(await planRequest(ctx, account, slug, body));
      const done = await upsertForm(ctx, account, slug, body, undefined, { confirm });
      return c.json(done, done.result === "created" ? 201 : 200);
    },
  );
  app.delete(
    "/api/forms/:slug",
    op("deleteForm", "Delete a form, its responses, file and uploads", {
      204: none("Deleted"),
      ...OWNER,
    }),
    nothing((account, slug) => deleteForm(ctx, account, slug)),
  );
  app.post(
    "/api/forms/:slug/publish",
    op(
      "publishForm",
      "Make a draft live (its file is committed now); a live form is left as it is",
      { 200: json(published), ...OWNER },
    ),
    answer((account, slug) => publishForm(ctx, account, slug)),
  );
  app.post(
    "/api/forms/:slug/preview/rotate",
    op(
      "rotatePreview",
      "Give a draft a new preview link; the old one stops working (a live form has none)",
      { 200: json(rotated), ...errors("Conflict"), ...OWNER },
    ),
    answer((account, slug) => rotatePreview(ctx, account, slug)),
  );
  // a form file removed or renamed (what `formdown deploy` calls for git's D and R)
  app.post(
    "/api/forms/:slug/close",
    op(
      "closeRemovedForm",
      "Close a form whose file was removed (what `formdown deploy` does): responses kept, never a delete",
      { 200: json(closed), ...OWNER },
    ),
    answer((account, slug) => closeRemovedForm(ctx, account, slug)),
  );
  app.post(
    "/api/forms/:slug/rename",
    op(
      "renameForm",
      "Move a form to a new slug: same id, responses and webhooks; the old public URL redirects (301)",
      { 200: json(renamed), ...errors("BadRequest", "Conflict"), ...OWNER },
      { requestBody: requestBody(renameBody) },
    ),
    answer(async (account, slug, c) => {
      const body = (await readJson(c)) as { slug?: unknown };
      return renameForm(ctx, account, slug, body.slug as string);
    }),
  );
  app.put(
    "/api/forms/:slug/access",
    op(
      "updateFormAccess",
      "Set or rotate the respondent access policy",
      { 200: json(accessAnswer), ...REFUSED },
      { requestBody: requestBody(accessBody) },
    ),
    answer(async (account, slug, c) => updateAccess(ctx, account, slug, await readJson(c))),
  );
}
