import type { Hono } from "hono";
import { type Env, requireKey } from "../auth.ts";
import type { AppContext } from "../context.ts";
import { body, errors, json, OWNER, op } from "../contracts/common.ts";
import { memberBody, memberCreated, memberList, memberRemoved } from "../contracts/members.ts";
import { addMember, listMembers, removeMember } from "../services/members.ts";

/** The account's members (SPEC §26): each with a role, and keys the role bounds. */
export function memberRoutes(app: Hono<Env>, ctx: AppContext): void {
  const key = requireKey(ctx);
  app.post(
    "/api/members",
    key,
    op(
      "addMember",
      "Add a member with a role (owner, editor, viewer); answers the member and their first key",
      {
        201: json(memberCreated),
        ...errors("BadRequest", "Unauthorized", "Forbidden", "Conflict", "RateLimited"),
      },
    ),
    body(memberBody, 4096),
    async (c) => c.json(await addMember(ctx, c.get("account"), c.req.valid("json")), 201),
  );
  app.get(
    "/api/members",
    key,
    op("listMembers", "List the account's members and their roles", {
      200: json(memberList),
      ...errors(...OWNER),
    }),
    async (c) => c.json({ members: await listMembers(ctx, c.get("account")) }),
  );
  app.delete(
    "/api/members/:id",
    key,
    op("removeMember", "Remove a member and revoke their keys", {
      200: json(memberRemoved),
      ...errors(...OWNER),
    }),
    async (c) => c.json(await removeMember(ctx, c.get("account"), c.req.param("id"))),
  );
}
