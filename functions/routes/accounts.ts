import type { Hono } from "hono";
import { raise } from "../../src/core/errors.ts";
import { bearer, type Env } from "../auth.ts";
import type { AppContext } from "../context.ts";
import {
  accountBody,
  accountCreated,
  keyBody,
  keyCreated,
  keyList,
  overview,
} from "../contracts/accounts.ts";
import { op as described, errors, json, none, OWNER, requestBody } from "../contracts/common.ts";
import { constantTimeEqual } from "../crypto.ts";
import { readJson } from "../http/body.ts";
import { accountOverview, createAccount } from "../services/accounts.ts";
import { createKey, listKeys, revokeKey } from "../services/keys.ts";
import { answer, keyed, nothing } from "./operation.ts";

export function accountRoutes(app: Hono<Env>, ctx: AppContext): void {
  app.post(
    "/api/accounts",
    described(
      "createAccount",
      "Create an account (admin token)",
      {
        201: json(accountCreated),
        ...errors("BadRequest", "Unauthorized", "NotFound", "Conflict"),
      },
      { requestBody: requestBody(accountBody) },
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

  const op = keyed(ctx);
  // whose key this is: `formdown init` scaffolds forms under the key's own handler (SPEC §22)
  app.get(
    "/api/account",
    op("getAccount", "The key's account: its handler and forms folder", {
      200: json(overview),
      ...OWNER,
    }),
    answer((account) => accountOverview(ctx, account)),
  );
  app.post(
    "/api/keys",
    op(
      "createKey",
      "Create another API key, with scopes (read, write, admin) and optionally only some forms",
      {
        201: json(keyCreated),
        ...errors("BadRequest", "Unauthorized", "Forbidden", "NotFound", "Conflict", "RateLimited"),
      },
      { requestBody: requestBody(keyBody) },
    ),
    answer(async (account, _, c) => createKey(ctx, account, await readJson(c, 4096, true)), 201),
  );
  app.get(
    "/api/keys",
    op("listKeys", "List your API keys", { 200: json(keyList), ...OWNER }),
    answer(async (account) => ({ keys: await listKeys(ctx, account) })),
  );
  app.delete(
    "/api/keys/:id",
    op("revokeKey", "Revoke a key", { 204: none("Revoked"), ...OWNER }),
    nothing((account, _, c) => revokeKey(ctx, account, c.req.param("id")!)),
  );
}
