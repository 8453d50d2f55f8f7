import type { Hono } from "hono";
import { raise } from "../../src/core/errors.ts";
import { bearer, type Env, requireKey } from "../auth.ts";
import type { AppContext } from "../context.ts";
import {
  accountBody,
  accountCreated,
  keyBody,
  keyCreated,
  keyList,
  overview,
} from "../contracts/accounts.ts";
import { errors, json, none, OWNER, op, requestBody } from "../contracts/common.ts";
import { constantTimeEqual } from "../crypto.ts";
import { readJson } from "../http/body.ts";
import { accountOverview, createAccount } from "../services/accounts.ts";
import { createKey, listKeys, revokeKey } from "../services/keys.ts";

export function accountRoutes(app: Hono<Env>, ctx: AppContext): void {
  const created = { 201: json(accountCreated) };
  const refused = errors("BadRequest", "Unauthorized", "NotFound", "Conflict");
  app.post(
    "/api/accounts",
    op(
      "createAccount",
      "Create an account (admin token)",
      { ...created, ...refused },
      {
        requestBody: requestBody(accountBody),
      },
    ),
    async (c) => {
      const admin = ctx.config.adminToken;
      if (!admin) raise("not_found", "Account creation is not enabled (no FORMDOWN_ADMIN_TOKEN).");
      const token = bearer(c.req.header("authorization"));
      if (!token || !constantTimeEqual(token, admin!))
        raise("unauthorized", "Send the admin token as `Authorization: Bearer <token>`.");
      return c.json(await createAccount(ctx, await readJson(c)), 201);
    },
  );

  const key = requireKey(ctx);
  // whose key this is: `formdown init` scaffolds forms under the key's own handler (SPEC §22)
  app.get(
    "/api/account",
    key,
    op("getAccount", "The key's account: its handler and forms folder", {
      200: json(overview),
      ...errors(...OWNER),
    }),
    async (c) => c.json(await accountOverview(ctx, c.get("account"))),
  );
  app.post(
    "/api/keys",
    key,
    op(
      "createKey",
      "Create another API key, with scopes (read, write, admin) and optionally only some forms",
      {
        201: json(keyCreated),
        ...errors("BadRequest", "Unauthorized", "Forbidden", "NotFound", "Conflict", "RateLimited"),
      },
      { requestBody: requestBody(keyBody) },
    ),
    async (c) => c.json(await createKey(ctx, c.get("account"), await readJson(c, 4096, true)), 201),
  );
  app.get(
    "/api/keys",
    key,
    op("listKeys", "List your API keys", { 200: json(keyList), ...errors(...OWNER) }),
    async (c) => c.json({ keys: await listKeys(ctx, c.get("account")) }),
  );
  app.delete(
    "/api/keys/:id",
    key,
    op("revokeKey", "Revoke a key", { 204: none("Revoked"), ...errors(...OWNER) }),
    async (c) => {
      await revokeKey(ctx, c.get("account"), c.req.param("id"));
      return c.body(null, 204);
    },
  );
}
