import { z } from "zod";
import { listInvites } from "../../services/invites.ts";
import { slug } from "../args.ts";
import { defineTool, READ } from "../tool.ts";

export const listInvitesTool = defineTool({
  name: "list_invites",
  title: "List invites",
  description: "Oldest first; state: sent, opened, answered, revoked or expired.",
  input: z.object({ slug }),
  output: z.object({
    invites: z.array(
      z.looseObject({ token: z.string(), email: z.string().optional(), state: z.string() }),
    ),
  }),
  grant: { rest: "GET /api/forms/:slug/invites" },
  annotations: READ,
  run: (ctx, account, a) => listInvites(ctx, account, a.slug),
});
