import type { Hono } from "hono";
import { type Env, requireKey } from "../auth.ts";
import type { AppContext } from "../context.ts";
import { errors, json, OWNER, op } from "../contracts/common.ts";
import { plan, versions } from "../contracts/forms.ts";
import { readJson } from "../http/body.ts";
import { listVersions } from "../services/versions/history.ts";
import { planRequest } from "../services/versions/plan.ts";

/** The 409 a change that would strand stored answers gets until it is confirmed. */
export const needsConfirmation = {
  409: {
    description:
      "`plan_needs_confirmation`: the change would leave stored answers unreachable; `details` is the plan. Confirm it (`?confirm=true`) or map the answers with `formerly`.",
    content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
  },
};

/** Versions and plans (SPEC §16): the history of a form, and what a change would do. */
export function versionRoutes(app: Hono<Env>, ctx: AppContext): void {
  const key = requireKey(ctx);
  app.get(
    "/api/forms/:slug/versions",
    key,
    op("listFormVersions", "A form's versions, newest first, each with the changes that made it", {
      200: json(versions),
      ...errors("Unauthorized", "Forbidden", "NotFound"),
    }),
    async (c) => c.json(await listVersions(ctx, c.get("account"), c.req.param("slug"))),
  );
  app.post(
    "/api/forms/:slug/plan",
    key,
    op(
      "planFormChange",
      "What deploying a change would do, with the stored answers each change touches; changes nothing",
      { 200: json(plan), ...errors("BadRequest", ...OWNER) },
      {
        description:
          "Body: what a PATCH takes (merged into the live definition), a whole definition (it states `slug`), or `{content}` / `{markdown}`: a form file; with `translations` as deploy sends them, the plan lists each language added, changed or removed (SPEC §20). Works for a slug that does not exist yet (`form_created`).",
        requestBody: {
          required: true,
          content: { "application/json": { schema: { type: "object" } } },
        },
      },
    ),
    async (c) =>
      c.json(await planRequest(ctx, c.get("account"), c.req.param("slug"), await readJson(c))),
  );
}
