import type { Hono } from "hono";
import { raise } from "../../src/core/errors.ts";
import { type Env, requireKey } from "../auth.ts";
import type { AppContext } from "../context.ts";
import { readJson } from "../http/body.ts";
import { deleteResponse, deleteResponses } from "../services/delete-responses.ts";
import { deleteTestResponses } from "../services/drafts.ts";
import { includeTest, parseInstant, parseInteger } from "../services/responses.ts";
import {
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  retryDelivery,
  testWebhook,
} from "../webhooks/service.ts";

const DELIVERY_STATUSES = ["pending", "delivered", "failed"];

/** Webhooks (SPEC §11) and deleting responses (SPEC §12). */
export function webhookRoutes(app: Hono<Env>, ctx: AppContext): void {
  const key = requireKey(ctx);
  const base = "/api/forms/:slug/webhooks";
  app.post(base, key, async (c) =>
    c.json(await createWebhook(ctx, c.get("account"), c.req.param("slug"), await readJson(c)), 201),
  );
  app.get(base, key, async (c) =>
    c.json(await listWebhooks(ctx, c.get("account"), c.req.param("slug"))),
  );
  app.delete(`${base}/:id`, key, async (c) => {
    await deleteWebhook(ctx, c.get("account"), c.req.param("slug"), c.req.param("id"));
    return c.body(null, 204);
  });
  app.post(`${base}/:id/test`, key, async (c) =>
    c.json(await testWebhook(ctx, c.get("account"), c.req.param("slug"), c.req.param("id"))),
  );
  app.get(`${base}/:id/deliveries`, key, async (c) => {
    const limit = parseInteger("limit", c.req.query("limit"), 25, 1, 100);
    const offset = parseInteger("offset", c.req.query("offset"), 0, 0, 100_000_000);
    const status = c.req.query("status");
    if (status !== undefined && !DELIVERY_STATUSES.includes(status))
      raise("invalid_request", `status must be one of ${DELIVERY_STATUSES.join(", ")}.`);
    const { slug, id } = c.req.param();
    return c.json(await listDeliveries(ctx, c.get("account"), slug, id, limit, offset, status));
  });
  app.post(`${base}/:id/deliveries/:delivery/retry`, key, async (c) => {
    const { slug, id, delivery } = c.req.param();
    return c.json(await retryDelivery(ctx, c.get("account"), slug, id, delivery), 202);
  });

  for (const name of ["responses", "submissions"]) {
    app.delete(`/api/forms/:slug/${name}/:id`, key, async (c) => {
      await deleteResponse(ctx, c.get("account"), c.req.param("slug"), c.req.param("id"));
      return c.body(null, 204);
    });
    app.delete(`/api/forms/:slug/${name}`, key, async (c) => {
      // `?test=true`: the test answers alone (SPEC §16), whatever their time
      if (includeTest(c.req.query("test")))
        return c.json(await deleteTestResponses(ctx, c.get("account"), c.req.param("slug")));
      const range = {
        since: parseInstant("since", c.req.query("since")),
        until: parseInstant("until", c.req.query("until")),
      };
      // `?where=`: the responses that meet the filter (SPEC §18), as the list shows them
      const where = c.req.query("where");
      const withTest = includeTest(c.req.query("include_test"), "include_test");
      return c.json(
        await deleteResponses(ctx, c.get("account"), c.req.param("slug"), range, where, withTest),
      );
    });
  }
}
