import type { Hono } from "hono";
import type { Env } from "../auth.ts";
import type { AppContext } from "../context.ts";
import { body, errorAnswer, errors, json, query, requestBody } from "../contracts/common.ts";
import { change, changeOptions, fieldChange, moveBody } from "../contracts/forms.ts";
import { readJson } from "../http/body.ts";
import { moveField, removeField, updateField } from "../services/field-changes.ts";
import { keyed } from "./operation.ts";
import { needsConfirmation } from "./versions.ts";

/**
 * One field at a time (SPEC §18): PATCH changes a field's keys (the body), DELETE removes it,
 * POST …/move puts it `{before}` or `{after}` another. Each answers `{slug, version, field, plan}`;
 * `?dry_run=true` only plans, `?confirm=true` accepts a plan that strands stored answers.
 */
export function fieldRoutes(app: Hono<Env>, ctx: AppContext): void {
  const op = keyed(ctx);
  const changed = query(change);
  const responses = {
    200: json(fieldChange, "The field and the plan (with `?dry_run=true`, nothing changed)"),
    ...errors("BadRequest", "Unauthorized", "Forbidden"),
    404: errorAnswer(
      "`not_found`: no such form, or no such field (the message names the closest id)",
    ),
    ...needsConfirmation,
  };
  const path = "/api/forms/:slug/fields/:id";
  app.patch(
    path,
    op(
      "updateField",
      "Change one field's keys; only its lines of the form file change",
      responses,
      {
        description:
          'The body holds the keys to change (`null` removes a key), e.g. `{"label": "New"}`. A new `id` keeps the field\'s answers: the old id goes into `formerly`.',
        requestBody: {
          required: true,
          content: { "application/json": { schema: { type: "object" } } },
        },
      },
    ),
    changed,
    async (c) => {
      const { slug, id } = c.req.param();
      const body = await readJson(c);
      const change = changeOptions(c.req.valid("query"));
      return c.json(await updateField(ctx, c.get("account"), slug, id, body, change));
    },
  );
  app.delete(
    path,
    op(
      "removeField",
      "Remove one field; its answers stay stored and are exported as retired",
      responses,
      {
        description:
          "A field that has answers is refused with 409 `plan_needs_confirmation` until `?confirm=true`.",
      },
    ),
    changed,
    async (c) => {
      const { slug, id } = c.req.param();
      return c.json(
        await removeField(ctx, c.get("account"), slug, id, changeOptions(c.req.valid("query"))),
      );
    },
  );
  app.post(
    `${path}/move`,
    op("moveField", "Put one field before or after another; only the order changes", responses, {
      requestBody: requestBody(moveBody, "Exactly one of `before` and `after`"),
    }),
    changed,
    body(moveBody),
    async (c) => {
      const { slug, id } = c.req.param();
      const change = changeOptions(c.req.valid("query"));
      return c.json(await moveField(ctx, c.get("account"), slug, id, c.req.valid("json"), change));
    },
  );
}
