import type { Hono } from "hono";
import type { Env } from "../auth.ts";
import type { AppContext } from "../context.ts";
import { body, errors, json, OWNER } from "../contracts/common.ts";
import { memberBody, memberCreated, memberList, memberRemoved } from "../contracts/members.ts";
import { addMember, listMembers, removeMember } from "../services/members.ts";
import { answer, keyed } from "./operation.ts";

/** The account's members (SPEC §26): each with a role, and keys the role bounds. */
export function memberRoutes(app: Hono<Env>, ctx: AppContext): void {
  const op = keyed(ctx);
  app.post(
    "/api/members",
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
    op("listMembers", "List the account's members and their roles", {
      200: json(memberList),
      ...OWNER,
    }),
    answer(async (account) => ({ members: await listMembers(ctx, account) })),
  );
  app.delete(
    "/api/members/:id",
    op("removeMember", "Remove a member and revoke their keys", {
      200: json(memberRemoved),
      ...OWNER,
    }),
    answer((account, _, c) => removeMember(ctx, account, c.req.param("id")!)),
  );
}
