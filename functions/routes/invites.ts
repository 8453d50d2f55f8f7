import type { Hono } from "hono";
import type { Env } from "../auth.ts";
import type { AppContext } from "../context.ts";
import { errors, json, OWNER, requestBody } from "../contracts/common.ts";
import { inviteList, inviteRevoked, invitesBody, invitesCreated } from "../contracts/invites.ts";
import { readJson } from "../http/body.ts";
import { createInvites, listInvites, revokeInvite } from "../services/invites.ts";
import { answer, keyed } from "./operation.ts";

/** Personal links (SPEC §25). */
export function inviteRoutes(app: Hono<Env>, ctx: AppContext): void {
  const op = keyed(ctx);
  const base = "/api/forms/:slug/invites";
  app.post(
    base,
    op(
      "createInvites",
      "Mint single-use links (one per email, sent through the outbox, plus count more)",
      { 201: json(invitesCreated), ...errors("BadRequest", "Conflict"), ...OWNER },
      { requestBody: requestBody(invitesBody) },
    ),
    answer(async (account, slug, c) => createInvites(ctx, account, slug, await readJson(c)), 201),
  );
  app.get(
    base,
    op("listInvites", "The form's invites with their state (sent, opened, answered)", {
      200: json(inviteList),
      ...OWNER,
    }),
    answer((account, slug) => listInvites(ctx, account, slug)),
  );
  app.delete(
    `${base}/:token`,
    op("revokeInvite", "Revoke an invite: its link is refused from now on", {
      200: json(inviteRevoked),
      ...OWNER,
    }),
    answer((account, slug, c) => revokeInvite(ctx, account, slug, c.req.param("token")!)),
  );
}
