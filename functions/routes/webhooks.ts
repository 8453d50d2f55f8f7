import type { Hono } from "hono";
import type { Env } from "../auth.ts";
import type { AppContext } from "../context.ts";
import { errors, json, none, OWNER, query, requestBody } from "../contracts/common.ts";
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
import { answer, keyed, nothing } from "./operation.ts";

/** Webhooks (SPEC §11). */
export function webhookRoutes(app: Hono<Env>, ctx: AppContext): void {
  const op = keyed(ctx);
  const base = "/api/forms/:slug/webhooks";
  app.post(
    base,
    op(
      "createWebhook",
      "Add a webhook; the signing secret is shown only in this answer",
      { 201: json(webhookCreated), ...errors("BadRequest", "Conflict"), ...OWNER },
      { requestBody: requestBody(webhookBody) },
    ),
    answer(async (account, slug, c) => createWebhook(ctx, account, slug, await readJson(c)), 201),
  );
  app.get(
    base,
    op("listWebhooks", "The form's webhooks (without secrets)", {
      200: json(webhookList),
      ...OWNER,
    }),
    answer((account, slug) => listWebhooks(ctx, account, slug)),
  );
  app.delete(
    `${base}/:id`,
    op("deleteWebhook", "Delete a webhook and its deliveries (not one kept in the form file)", {
      204: none("Deleted"),
      ...errors("Conflict"),
      ...OWNER,
    }),
    nothing((account, slug, c) => deleteWebhook(ctx, account, slug, c.req.param("id")!)),
  );
  app.post(
    `${base}/:id/test`,
    op("testWebhook", "Send a webhook.test event now; answers the receiver's HTTP status", {
      200: json(webhookTested),
      ...OWNER,
    }),
    answer((account, slug, c) => testWebhook(ctx, account, slug, c.req.param("id")!)),
  );
  app.get(
    `${base}/:id/deliveries`,
    op("listWebhookDeliveries", "The webhook's deliveries, newest first", {
      200: json(deliveries),
      ...errors("BadRequest"),
      ...OWNER,
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
    op("retryWebhookDelivery", "Queue a delivery again, at once", { 202: json(retried), ...OWNER }),
    answer((account, slug, c) => {
      const [id, delivery] = [c.req.param("id")!, c.req.param("delivery_id")!];
      return retryDelivery(ctx, account, slug, id, delivery);
    }, 202),
  );
}
