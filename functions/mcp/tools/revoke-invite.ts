import { z } from "zod";
import { revokeInvite } from "../../services/invites.ts";
import { slug } from "../args.ts";
import { DELETE, defineTool } from "../tool.ts";

export const revokeInviteTool = defineTool({
  name: "revoke_invite",
  title: "Revoke an invite",
  description: "Refuse one link from now on; its unsent email is dropped.",
  input: z.object({ slug, token: z.string().min(1) }),
  output: z.object({ revoked: z.boolean() }),
  grant: { rest: "DELETE /api/forms/:slug/invites/:token" },
  annotations: DELETE,
  run: (ctx, account, a) => revokeInvite(ctx, account, a.slug, a.token),
});
