import type { Hono } from "hono";
import { type Env, requireKey } from "../auth.ts";
import type { AppContext } from "../context.ts";
import { errors, json, OWNER, op, requestBody } from "../contracts/common.ts";
import { inviteList, inviteRevoked, invitesBody, invitesCreated } from "../contracts/invites.ts";
import { readJson } from "../http/body.ts";
import { createInvites, listInvites, revokeInvite } from "../services/invites.ts";

/** Personal links (SPEC §25). */
export function inviteRoutes(app: Hono<Env>, ctx: AppContext): void {
  const key = requireKey(ctx);
  const owner = errors(...OWNER);
  const base = "/api/forms/:slug/invites";
  app.post(
    base,
    key,
    op(
      "createInvites",
      "Mint single-use links (one per email, sent through the outbox, plus count more)",
      { 201: json(invitesCreated), ...errors("BadRequest", "Conflict"), ...owner },
      { requestBody: requestBody(invitesBody) },
    ),
    async (c) =>
      c.json(
        await createInvites(ctx, c.get("account"), c.req.param("slug"), await readJson(c)),
        201,
      ),
  );
  app.get(
    base,
    key,
    op("listInvites", "The form's invites with their state (sent, opened, answered)", {
      200: json(inviteList),
      ...owner,
    }),
    async (c) => c.json(await listInvites(ctx, c.get("account"), c.req.param("slug"))),
  );
  app.delete(
    `${base}/:token`,
    key,
    op("revokeInvite", "Revoke an invite: its link is refused from now on", {
      200: json(inviteRevoked),
      ...owner,
    }),
    async (c) => {
      const { slug, token } = c.req.param();
      return c.json(await revokeInvite(ctx, c.get("account"), slug, token));
    },
  );
}
