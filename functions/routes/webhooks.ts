import type { Hono } from "hono";
import { type Env, requireKey } from "../auth.ts";
import type { AppContext } from "../context.ts";
import { errors, json, none, OWNER, op, query, requestBody } from "../contracts/common.ts";
import {
  deliveries,
  deliveriesQuery,
  retried,
  webhookBody,
  webhookCreated,
  webhookList,
  webhookTested,
} from "../contracts/webhooks.ts";
import { readJson } from "../http/body.ts";
import {
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  retryDelivery,
  testWebhook,
} from "../webhooks/service.ts";

/** Webhooks (SPEC §11). */
export function webhookRoutes(app: Hono<Env>, ctx: AppContext): void {
  const key = requireKey(ctx);
  const owner = errors(...OWNER);
  const base = "/api/forms/:slug/webhooks";
  app.post(
    base,
    key,
    op(
      "createWebhook",
      "Add a webhook; the signing secret is shown only in this answer",
      { 201: json(webhookCreated), ...errors("BadRequest", "Conflict"), ...owner },
      { requestBody: requestBody(webhookBody) },
    ),
    async (c) =>
      c.json(
        await createWebhook(ctx, c.get("account"), c.req.param("slug"), await readJson(c)),
        201,
      ),
  );
  app.get(
    base,
    key,
    op("listWebhooks", "The form's webhooks (without secrets)", {
      200: json(webhookList),
      ...owner,
    }),
    async (c) => c.json(await listWebhooks(ctx, c.get("account"), c.req.param("slug"))),
  );
  app.delete(
    `${base}/:id`,
    key,
    op("deleteWebhook", "Delete a webhook and its deliveries (not one kept in the form file)", {
      204: none("Deleted"),
      ...errors("Conflict"),
      ...owner,
    }),
    async (c) => {
      await deleteWebhook(ctx, c.get("account"), c.req.param("slug"), c.req.param("id"));
      return c.body(null, 204);
    },
  );
  app.post(
    `${base}/:id/test`,
    key,
    op("testWebhook", "Send a webhook.test event now; answers the receiver's HTTP status", {
      200: json(webhookTested),
      ...owner,
    }),
    async (c) =>
      c.json(await testWebhook(ctx, c.get("account"), c.req.param("slug"), c.req.param("id"))),
  );
  app.get(
    `${base}/:id/deliveries`,
    key,
    op("listWebhookDeliveries", "The webhook's deliveries, newest first", {
      200: json(deliveries),
      ...errors("BadRequest"),
      ...owner,
    }),
    query(deliveriesQuery),
    async (c) => {
      const { limit, offset, status } = c.req.valid("query");
      const { slug, id } = c.req.param();
      return c.json(await listDeliveries(ctx, c.get("account"), slug, id, limit, offset, status));
    },
  );
  app.post(
    `${base}/:id/deliveries/:delivery_id/retry`,
    key,
    op("retryWebhookDelivery", "Queue a delivery again, at once", { 202: json(retried), ...owner }),
    async (c) => {
      const { slug, id, delivery_id } = c.req.param();
      return c.json(await retryDelivery(ctx, c.get("account"), slug, id, delivery_id), 202);
    },
  );
}
