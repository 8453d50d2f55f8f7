import type { Hono } from "hono";
import { raise } from "../../src/core/errors.ts";
import { bearer, type Env, requireKey } from "../auth.ts";
import type { AppContext } from "../context.ts";
import { constantTimeEqual } from "../crypto.ts";
import { readJson } from "../http/body.ts";
import { createAccount } from "../services/accounts.ts";
import { createKey, listKeys, revokeKey } from "../services/keys.ts";

export function accountRoutes(app: Hono<Env>, ctx: AppContext): void {
  app.post("/api/accounts", async (c) => {
    const admin = ctx.config.adminToken;
    if (!admin) raise("not_found", "Account creation is not enabled (no FORMDOWN_ADMIN_TOKEN).");
    const token = bearer(c.req.header("authorization"));
    if (!token || !constantTimeEqual(token, admin!))
      raise("unauthorized", "Send the admin token as `Authorization: Bearer <token>`.");
    return c.json(await createAccount(ctx, await readJson(c)), 201);
  });

  const key = requireKey(ctx);
  app.post("/api/keys", key, async (c) =>
    c.json(await createKey(ctx, c.get("account"), await readJson(c, 4096, true)), 201),
  );
  app.get("/api/keys", key, async (c) => c.json({ keys: await listKeys(ctx, c.get("account")) }));
  app.delete("/api/keys/:id", key, async (c) => {
    await revokeKey(ctx, c.get("account"), c.req.param("id"));
    return c.body(null, 204);
  });
}
